import { apiRoute, json, readJson } from "@/lib/api/route";
import { createCredential, listCredentials } from "@/lib/credentials/store";

export const GET = apiRoute({ role: "viewer" }, async ({ caller }) => ({
  items: await listCredentials(caller.tenant.id),
  nextCursor: null,
}));

export const POST = apiRoute({ role: "editor" }, async ({ req, caller }) =>
  json(await createCredential(caller, await readJson(req)), 201),
);
