import { apiRoute } from "@/lib/api/route";
import { revertToVersion } from "@/lib/automations/lifecycle/versions";

export const POST = apiRoute<{ id: string; version: string }>(
  { role: "editor" },
  async ({ params, caller }) => revertToVersion(caller, params.id, params.version),
);
