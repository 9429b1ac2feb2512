import { apiRoute, json, readJson } from "@/lib/api/route";
import { ingestEvent } from "@/lib/events/ingest";

export const POST = apiRoute({ role: "editor" }, async ({ req, caller }) => {
  const { event, duplicate } = await ingestEvent(caller.tenant.id, await readJson(req));
  const { inserted: _inserted, ...shown } = event;
  return json({ ...shown, duplicate }, duplicate ? 200 : 201);
});
