import type { Task } from "graphile-worker";
import { evaluateAlerts } from "@/lib/alerts/evaluate";

/** Every minute: what the shops' alert rules should say now, kept and queued for sending. */
export const alertEvaluate: Task = async (_payload, helpers) => {
  const { made } = await evaluateAlerts();
  const total = Object.values(made).reduce((sum, n) => sum + n, 0);
  // Said only when an alert was made, so a quiet minute leaves the log quiet.
  if (total > 0)
    helpers.logger.info(
      `Alerts: made ${total} (${Object.entries(made)
        .filter(([, n]) => n > 0)
        .map(([kind, n]) => `${n} ${kind}`)
        .join(", ")}).`,
    );
};
