import { apiRoute } from "@/lib/api/route";
import { settleHeldRun } from "@/lib/automations/runs/held";

/** Releases one held run (a second time: 409). */
export const POST = apiRoute<{ id: string }>({ role: "editor" }, async ({ params, caller }) =>
  settleHeldRun(caller, params.id, "release"),
);
