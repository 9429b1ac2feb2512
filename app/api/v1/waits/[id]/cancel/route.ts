import { apiRoute } from "@/lib/api/route";
import { cancelWaitById } from "@/lib/automations/waits/waits";

export const POST = apiRoute<{ id: string }>({ role: "editor" }, async ({ params, caller }) =>
  cancelWaitById(caller, params.id),
);
