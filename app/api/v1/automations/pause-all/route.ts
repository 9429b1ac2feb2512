import { apiRoute } from "@/lib/api/route";
import { engageBrake } from "@/lib/automations/brake/brake";

export const POST = apiRoute({ role: "admin" }, async ({ caller }) => engageBrake(caller));
