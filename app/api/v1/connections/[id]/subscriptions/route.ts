import { apiRoute } from "@/lib/api/route";
import { connectionSubscriptions } from "@/lib/connections/store";

/** A Shopify connection's webhook subscriptions, each topic Tillflow reads with its state (issue 52). */
export const GET = apiRoute<{ id: string }>({ role: "viewer" }, async ({ params, caller }) =>
  connectionSubscriptions(caller.tenant.id, params.id),
);
