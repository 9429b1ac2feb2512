import type { Task } from "graphile-worker";
import { pruneDeliveries } from "@/lib/connections/prune";

/** Daily: deletes store deliveries older than 30 days; the records they made stay. */
export const connectionPrune: Task = async (_payload, helpers) => {
  const deleted = await pruneDeliveries();
  if (deleted) helpers.logger.info(`Deleted ${deleted} store deliveries older than 30 days.`);
};
