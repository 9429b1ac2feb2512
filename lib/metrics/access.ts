import crypto from "node:crypto";
import { config } from "@/lib/config/config";

/**
 * Who may read the metrics: a bearer `METRICS_TOKEN`. Without the variable the metrics are off
 * (they name tasks and volumes, which are nobody's business by default).
 */
export function metricsAccess(
  authorization: string | null,
  token = config().METRICS_TOKEN,
): "off" | "denied" | "ok" {
  if (!token) return "off";
  const given = Buffer.from(authorization?.replace(/^Bearer\s+/i, "").trim() ?? "");
  const expected = Buffer.from(token);
  return given.length === expected.length && crypto.timingSafeEqual(given, expected) ? "ok" : "denied";
}
