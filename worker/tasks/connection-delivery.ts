import type { Task } from "graphile-worker";
import { processDelivery } from "@/lib/connections/process";
import { taskPayloads } from "@/lib/jobs";

/** Applies one webhook a connected store posted: its record, events and runs. */
export const connectionDelivery: Task = async (payload) => {
  const { deliveryId } = taskPayloads.connection_delivery.parse(payload);
  await processDelivery(deliveryId);
};
