import { apiRoute } from "@/lib/api/route";
import { setActive } from "@/lib/automations/lifecycle/set-active";

export const POST = apiRoute<{ id: string }>({ role: "editor" }, async ({ params, caller }) =>
  setActive(caller, params.id, true),
);
