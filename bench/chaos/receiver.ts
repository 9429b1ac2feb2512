/** The chaos suite's stand-in for a merchant's system: an HTTP server counting deliveries by `Idempotency-Key`. */
import http from "node:http";
import type { AddressInfo } from "node:net";

/** A tiny stable hash, so which keys fail first and which approvals are rejected is reproducible. */
export function hash(text: string): number {
  let h = 0;
  for (let i = 0; i < text.length; i++) h = (h * 31 + text.charCodeAt(i)) | 0;
  return Math.abs(h);
}

export interface Receiver {
  url: string;
  /** 2xx answers by key. */
  delivered: Map<string, number>;
  close(): Promise<void>;
}

/**
 * Listens on 127.0.0.1. Answers 503 to the first attempt of one key in five (the action retries),
 * and counts the others by key: a repeat of a key is what a real receiver would drop.
 */
export async function startReceiver(): Promise<Receiver> {
  const delivered = new Map<string, number>();
  const failedOnce = new Set<string>();
  const server = http.createServer((req, res) => {
    req.resume();
    const key = String(req.headers["idempotency-key"] ?? "");
    if (hash(key) % 5 === 0 && !failedOnce.has(key)) {
      failedOnce.add(key);
      res.statusCode = 503;
      res.end("try again");
      return;
    }
    delivered.set(key, (delivered.get(key) ?? 0) + 1);
    // A little latency, so requests are in flight when a worker is killed.
    setTimeout(() => res.end("ok"), 5 + Math.random() * 25);
  });
  server.keepAliveTimeout = 1_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    delivered,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
