import type { Platform } from "@/lib/automations/insights/platform";

/** A link to the runs list filtered as given (the list's own query params; days are the shop's). */
export function runsHref(filters: {
  status?: string;
  automationId?: string;
  from?: string;
  to?: string;
  platform?: Platform;
}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) if (value) params.set(key, value);
  const query = params.toString();
  return query ? `/runs?${query}` : "/runs";
}
