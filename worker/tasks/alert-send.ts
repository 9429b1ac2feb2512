import type { Task } from "graphile-worker";
import { sendAlert } from "@/lib/alerts/send";
import { taskPayloads } from "@/lib/jobs";

/** Sends one alert; a failure that may pass is thrown, and graphile-worker tries again with backoff. */
export const alertSend: Task = async (payload) => {
  const { alertId } = taskPayloads.alert_send.parse(payload);
  await sendAlert(alertId);
};
