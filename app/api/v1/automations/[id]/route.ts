import { apiRoute } from "@/lib/api/route";
import { archiveAutomation } from "@/lib/automations/lifecycle/archive";
import { getAutomation } from "@/lib/automations/lifecycle/read";

export const GET = apiRoute<{ id: string }>({ role: "viewer" }, async ({ params, caller }) =>
  getAutomation(caller.tenant.id, params.id),
);

/** Archives (SPEC §4): runs, versions and history are kept; built-ins are refused (409). */
export const DELETE = apiRoute<{ id: string }>(
  { role: "editor" },
  async ({ params, caller }) => (await archiveAutomation(caller, params.id)).automation,
);
