import { apiRoute, json, readJson } from "@/lib/api/route";
import { tryLater } from "@/lib/automations/runs/try-later";

/**
 * `{ step, then? }` → runs the automation's Later trigger for `step` now, as if a later step had
 * come due; answers 201 `{ run }` with the new run as `GET /api/v1/runs/:id` shows it.
 */
export const POST = apiRoute<{ id: string }>({ role: "editor" }, async ({ req, params, caller }) =>
  json(await tryLater(caller, params.id, await readJson(req)), 201),
);
