import { apiRoute, json, readJson } from "@/lib/api/route";
import { createAlertRule, listAlertRules } from "@/lib/alerts/rules";

export const GET = apiRoute({ role: "viewer" }, async ({ caller }) => ({
  items: await listAlertRules(caller),
  nextCursor: null,
}));

export const POST = apiRoute({ role: "admin" }, async ({ req, caller }) =>
  json(await createAlertRule(caller, await readJson(req)), 201),
);
