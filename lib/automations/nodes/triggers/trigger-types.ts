/*
 * The types of the triggers other parts look for in a graph, as plain data: no zod, no
 * definitions, so the engine's hot path, the editor's first paint and the SQL that reads stored
 * graphs can name them (`triggers.ts` defines them with these).
 */

/** Webhook received: its `token` is its address, a typed-in `secret` becomes a credential. */
export const WEBHOOK_TRIGGER = "auto.trigger.webhook";
/** On a schedule: publishing syncs its fire times; the editor offers Run now and a preview. */
export const SCHEDULE_TRIGGER = "auto.trigger.schedule";
/** Later step comes due: started by a Later action's step name (`later-steps.ts`). */
export const LATER_TRIGGER = "auto.trigger.later";
