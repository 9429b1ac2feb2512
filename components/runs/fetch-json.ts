/**
 * GETs one of our own API routes with the session cookie, for react-query. An error reply becomes
 * an Error carrying the API's own sentence.
 */
export async function fetchJson<T>(url: string): Promise<T> {
  const res = await fetch(url, { headers: { accept: "application/json" }, cache: "no-store" });
  const body: unknown = await res.json().catch(() => null);
  if (!res.ok) {
    const message =
      body && typeof body === "object" && "error" in body
        ? String((body as { error: { message?: unknown } }).error.message ?? "")
        : "";
    throw new Error(message || `The server answered ${res.status}.`);
  }
  return body as T;
}

/** How often live run pages poll: often enough to feel live, rare enough for a shop full of tabs. */
export const POLL_MS = 2_500;
