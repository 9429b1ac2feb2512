import type { Task } from "graphile-worker";
import { sendOutboxEmail } from "@/lib/automations/work/email";
import { taskPayloads } from "@/lib/jobs";

/** Sends one outbox email through SMTP. */
export const emailSend: Task = async (payload) => {
  const { outboxId } = taskPayloads.email_send.parse(payload);
  await sendOutboxEmail(outboxId);
};
