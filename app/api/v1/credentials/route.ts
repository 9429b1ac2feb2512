import { apiRoute, json, readJson } from "@/lib/api/route";
import { createCredential, listCredentials } from "@/lib/credentials/store";

export const GET = apiRoute({ role: "viewer" }, async ({ caller }) => ({
  items: await listCredentials(caller.tenant.id),
  nextCursor: null,
}));

// Admins only: an editor picks from the shop's credentials, and cannot make one to send anywhere.
export const POST = apiRoute({ role: "admin" }, async ({ req, caller }) =>
  json(await createCredential(caller, await readJson(req)), 201),
);
