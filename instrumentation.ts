/**
 * Runs once when the Next.js server starts: checks the environment (lib/config; a bad value stops
 * the server with one sentence), then, with no DATABASE_URL, finds (or starts) the embedded
 * database so every request handler can call getDb() synchronously.
 *
 * `process.env.NEXT_RUNTIME` is the one read outside lib/config, on purpose: Next.js replaces it
 * with a constant at build time, which is what keeps the Node-only imports below out of the edge
 * bundle. It is not configuration.
 */
export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { configAtStart } = await import("./lib/config/at-start");
    configAtStart();
    const { ensureDatabaseUrl } = await import("./lib/db/connection");
    await ensureDatabaseUrl();
  }
}
