import { apiRoute } from "@/lib/api/route";
import { completeTask } from "@/lib/automations/work/tasks";

export const POST = apiRoute<{ id: string }>({ role: "editor" }, async ({ params, caller }) =>
  completeTask(caller, params.id),
);
