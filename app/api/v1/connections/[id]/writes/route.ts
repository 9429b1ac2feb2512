import { apiRoute, readJson } from "@/lib/api/route";
import { setConnectionWrites } from "@/lib/connections/store";

/**
 * A connection's write key (issue 52): adds an Admin API token or a REST key to a connection made
 * without one, or replaces it; the webhooks are registered as when connecting with one.
 */
export const PUT = apiRoute<{ id: string }>({ role: "editor" }, async ({ req, params, caller }) =>
  setConnectionWrites(caller, params.id, await readJson(req)),
);
