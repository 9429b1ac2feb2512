import { apiRoute } from "@/lib/api/route";
import { resetToBuiltin } from "@/lib/automations/schedules/manage";

/** Publishes a built-in automation's platform definition as a new version (admins only). */
export const POST = apiRoute<{ id: string }>({ role: "admin" }, async ({ params, caller }) =>
  resetToBuiltin(caller, params.id),
);
