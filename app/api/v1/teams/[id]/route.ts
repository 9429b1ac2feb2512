import { apiRoute, readJson } from "@/lib/api/route";
import { deleteTeam, updateTeam } from "@/lib/teams/teams";

export const PUT = apiRoute<{ id: string }>({ role: "admin" }, async ({ req, params, caller }) =>
  updateTeam(caller, params.id, await readJson(req)),
);

export const DELETE = apiRoute<{ id: string }>({ role: "admin" }, async ({ params, caller }) =>
  deleteTeam(caller, params.id),
);
