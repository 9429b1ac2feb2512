import { apiRoute, searchParams } from "@/lib/api/route";
import { attributedOrders, attributionsCsv } from "@/lib/automations/performance/report";

/** The orders attributed to an automation in a period; `format=csv` answers a CSV file. */
export const GET = apiRoute<{ id: string }>({ role: "viewer" }, async ({ req, params, caller }) => {
  const { format, ...query } = searchParams(req);
  const result = await attributedOrders(caller.tenant.id, params.id, query);
  if (format !== "csv") return result;
  return new Response(attributionsCsv(result.items), {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="attributed-orders-${result.from}-to-${result.to}.csv"`,
    },
  });
});
