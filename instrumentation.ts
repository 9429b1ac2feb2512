/**
 * Runs once when the Next.js server starts: with no DATABASE_URL, find (or start) the embedded
 * database so every request handler can call getDb() synchronously.
 */
export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { ensureDatabaseUrl } = await import("./lib/db/connection");
    await ensureDatabaseUrl();
  }
}
