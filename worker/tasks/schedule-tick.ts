import type { Task } from "graphile-worker";
import { scheduleTick } from "@/lib/automations/schedules/tick";

/** Every minute: fire due schedules, record missed ones, re-create missing built-ins. */
export const scheduleTickTask: Task = async (_payload, helpers) => {
  const { fired, missed, builtinsCreated } = await scheduleTick();
  if (fired || missed || builtinsCreated) {
    helpers.logger.info(
      `Schedules: ${fired} fired, ${missed} fire times recorded as missed, ${builtinsCreated} built-in automations re-created.`,
    );
  }
};
