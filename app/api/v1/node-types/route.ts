import { apiRoute } from "@/lib/api/route";
import { describeNodeTypes } from "@/lib/automations/nodes/describe";

export const GET = apiRoute({ role: "viewer" }, async () => ({
  items: describeNodeTypes(),
  nextCursor: null,
}));
