import { apiRoute } from "@/lib/api/route";
import { brakeImpact, brakeState } from "@/lib/automations/brake/brake";

export const GET = apiRoute({ role: "viewer" }, async ({ caller }) => ({
  brake: await brakeState(caller.tenant.id),
  impact: await brakeImpact(caller.tenant.id),
}));
