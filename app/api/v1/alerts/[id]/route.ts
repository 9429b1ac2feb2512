import { apiRoute, readJson } from "@/lib/api/route";
import { deleteAlertRule, getAlertRule, updateAlertRule } from "@/lib/alerts/rules";

export const GET = apiRoute<{ id: string }>({ role: "viewer" }, async ({ params, caller }) =>
  getAlertRule(caller, params.id),
);

export const PUT = apiRoute<{ id: string }>({ role: "admin" }, async ({ req, params, caller }) =>
  updateAlertRule(caller, params.id, await readJson(req)),
);

export const DELETE = apiRoute<{ id: string }>({ role: "admin" }, async ({ params, caller }) =>
  deleteAlertRule(caller, params.id),
);
