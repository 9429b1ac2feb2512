import { apiRoute, readJson } from "@/lib/api/route";
import { saveDraft } from "@/lib/automations/lifecycle/save-draft";

export const PUT = apiRoute<{ id: string }>({ role: "editor" }, async ({ req, params, caller }) =>
  saveDraft(caller, params.id, await readJson(req)),
);
