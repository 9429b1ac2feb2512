import { apiRoute } from "@/lib/api/route";
import { repairConnectionSubscriptions } from "@/lib/connections/store";

/** "Repair": creates the connection's missing webhook subscriptions in Shopify again. */
export const POST = apiRoute<{ id: string }>({ role: "editor" }, async ({ params, caller }) =>
  repairConnectionSubscriptions(caller, params.id),
);
