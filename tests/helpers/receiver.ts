import type http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * Starts `server` (a test's receiver for HTTP steps, say) on a free port of 127.0.0.1, which the
 * tests' outbound guard allows, and returns its base URL, `http://127.0.0.1:<port>`.
 */
export async function listenLocally(server: http.Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Stops `server` once its open connections end. */
export function closeServer(server: http.Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}
