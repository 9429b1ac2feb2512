import { apiRoute } from "@/lib/api/route";
import { releaseBrake } from "@/lib/automations/brake/brake";

export const POST = apiRoute({ role: "admin" }, async ({ caller }) => releaseBrake(caller));
