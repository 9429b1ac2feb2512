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
 * Listens on 127.0.0.1 (or `host`). Answers 503 to the first attempt of one key in five (the action retries),
 * and counts the others by key: a repeat of a key is what a real receiver would drop.
 */
export async function startReceiver(host = "127.0.0.1", port = 0): Promise<Receiver> {
  const delivered = new Map<string, number>();
  const failedOnce = new Set<string>();
  // Callers whose requests are answered late (`PUT /__slow?from=<address>&ms=<n>`; DELETE clears).
  const slow = new Map<string, number>();
  const server = http.createServer((req, res) => {
    req.resume();
    const url = new URL(req.url ?? "/", "http://receiver");
    if (url.pathname === "/__slow") {
      if (req.method === "DELETE") slow.clear();
      else slow.set(url.searchParams.get("from") ?? "", Number(url.searchParams.get("ms") ?? 0));
      res.end("ok");
      return;
    }
    // On a host of its own (hosts.ts), the driver reads and clears the counts over HTTP.
    if (req.url === "/__delivered") {
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify(Object.fromEntries(delivered)));
      if (req.method === "DELETE") delivered.clear();
      return;
    }
    const key = String(req.headers["idempotency-key"] ?? "");
    if (hash(key) % 5 === 0 && !failedOnce.has(key)) {
      failedOnce.add(key);
      res.statusCode = 503;
      res.end("try again");
      return;
    }
    delivered.set(key, (delivered.get(key) ?? 0) + 1);
    // A little latency, so requests are in flight when a worker is killed; more for a slowed caller.
    const from = (req.socket.remoteAddress ?? "").replace(/^::ffff:/, "");
    setTimeout(() => res.end("ok"), (slow.get(from) ?? 0) + 5 + Math.random() * 25);
  });
  server.keepAliveTimeout = 1_000;
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  return {
    url: `http://${host}:${(server.address() as AddressInfo).port}`,
    delivered,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** `node --import tsx bench/chaos/receiver.ts <address> <port>`: the receiver as a host's only process. */
if (process.argv[1]?.endsWith("receiver.ts") && process.argv[2]) {
  void startReceiver(process.argv[2], Number(process.argv[3] ?? 8080)).then((r) =>
    console.log(`receiving on ${r.url}`),
  );
}
