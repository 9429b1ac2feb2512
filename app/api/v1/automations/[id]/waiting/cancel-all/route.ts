import { apiRoute } from "@/lib/api/route";
import { cancelAllWaits } from "@/lib/automations/waits/waits";

export const POST = apiRoute<{ id: string }>({ role: "editor" }, async ({ params, caller }) =>
  cancelAllWaits(caller, params.id),
);
