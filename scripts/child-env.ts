/**
 * The environment of a process the launcher starts (`next build`, the web server, the worker):
 * the launcher's own, plus `extra`, with Next's telemetry off, so its one-time "Attention: Next.js
 * now collects completely anonymous telemetry" notice is not printed on a fresh clone's first start.
 */
export function childEnv<E extends Record<string, string | undefined>>(
  base: E,
  extra: Record<string, string> = {},
): E & { NEXT_TELEMETRY_DISABLED: "1" } {
  return { ...base, ...extra, NEXT_TELEMETRY_DISABLED: "1" };
}
