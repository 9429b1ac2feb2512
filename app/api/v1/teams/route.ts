import { apiRoute, json, readJson } from "@/lib/api/route";
import { createTeam, listTeams } from "@/lib/teams/teams";

export const GET = apiRoute({ role: "viewer" }, async ({ caller }) => ({
  items: await listTeams(caller.tenant.id),
  nextCursor: null,
}));

export const POST = apiRoute({ role: "admin" }, async ({ req, caller }) =>
  json(await createTeam(caller, await readJson(req)), 201),
);
