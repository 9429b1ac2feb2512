import "server-only";
import http from "node:http";
import { metricsAccess } from "./access";
import { renderMetrics } from "./metrics";
import { config } from "@/lib/config/config";
import { log } from "@/lib/log/logger";

/**
 * A worker's metrics on `port` (`TILLFLOW_METRICS_PORT`): `GET /metrics`, Prometheus text. With
 * `METRICS_TOKEN` set, the same bearer token is asked for; without it the port answers anyone
 * who can reach it (bind it to a private network).
 */
export async function serveMetrics(port: number, host = "0.0.0.0"): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    void (async () => {
      if (req.method !== "GET" || (req.url ?? "/").split("?")[0] !== "/metrics") {
        res.writeHead(404, { "content-type": "text/plain" }).end("Not found: the metrics are at /metrics.\n");
        return;
      }
      if (config().METRICS_TOKEN && metricsAccess(req.headers.authorization ?? null) !== "ok") {
        res
          .writeHead(401, { "content-type": "text/plain" })
          .end("Send Authorization: Bearer $METRICS_TOKEN.\n");
        return;
      }
      try {
        const { text, contentType } = await renderMetrics();
        res.writeHead(200, { "content-type": contentType }).end(text);
      } catch (error) {
        log().error({ err: error }, "Rendering the metrics failed.");
        res
          .writeHead(500, { "content-type": "text/plain" })
          .end("The metrics could not be read; see the worker's log.\n");
      }
    })();
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  return server;
}
