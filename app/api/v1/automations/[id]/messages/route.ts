import { apiRoute } from "@/lib/api/route";
import { messageCounts } from "@/lib/automations/insights/messages";
import { isUuid, notFound } from "@/lib/errors";

export const GET = apiRoute<{ id: string }>({ role: "viewer" }, async ({ req, params, caller }) => {
  if (!isUuid(params.id)) throw notFound("That automation");
  return messageCounts(caller.tenant.id, params.id, Object.fromEntries(new URL(req.url).searchParams));
});
