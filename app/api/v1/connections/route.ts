import { apiRoute, json, readJson } from "@/lib/api/route";
import { createConnection, listConnections } from "@/lib/connections/store";

export const GET = apiRoute({ role: "viewer" }, async ({ caller }) => ({
  items: await listConnections(caller.tenant.id),
  nextCursor: null,
}));

export const POST = apiRoute({ role: "editor" }, async ({ req, caller }) =>
  json(await createConnection(caller, await readJson(req)), 201),
);
