import { errorResponse } from "@/lib/api/route";
import { AppError } from "@/lib/errors";
import { metricsAccess } from "@/lib/metrics/access";
import { renderMetrics } from "@/lib/metrics/metrics";

/** The web server's Prometheus metrics, for a bearer `METRICS_TOKEN` (off without it). */
export async function GET(req: Request) {
  const access = metricsAccess(req.headers.get("authorization"));
  if (access === "off")
    return errorResponse(new AppError(404, "not_found", "Metrics are off: set METRICS_TOKEN to serve them."));
  if (access === "denied")
    return errorResponse(
      new AppError(401, "unauthorized", "Send the metrics token: Authorization: Bearer $METRICS_TOKEN."),
    );
  const { text, contentType } = await renderMetrics();
  return new Response(text, { headers: { "content-type": contentType, "cache-control": "no-store" } });
}
