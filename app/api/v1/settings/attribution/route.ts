import { apiRoute, readJson } from "@/lib/api/route";
import { readAttributionSettings, setAttributionSettings } from "@/lib/automations/performance/settings";

/** The shop's goal and attribution window. */
export const GET = apiRoute({ role: "viewer" }, async ({ caller }) => readAttributionSettings(caller));

/** Sets the goal, window and currency (admin; audited); they hold for orders recorded from now on. */
export const PUT = apiRoute({ role: "admin" }, async ({ req, caller }) =>
  setAttributionSettings(caller, await readJson(req)),
);
