import { apiRoute } from "@/lib/api/route";
import { resumeNow } from "@/lib/automations/waits/waits";

export const POST = apiRoute<{ id: string }>({ role: "editor" }, async ({ params, caller }) =>
  resumeNow(caller, params.id),
);
