import { apiRoute } from "@/lib/api/route";
import { settleHeldRun } from "@/lib/automations/runs/held";

/** Discards one held run (a second time: 409). */
export const POST = apiRoute<{ id: string }>({ role: "editor" }, async ({ params, caller }) =>
  settleHeldRun(caller, params.id, "discard"),
);
