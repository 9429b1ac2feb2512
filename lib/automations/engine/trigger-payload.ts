import { STATUS_EVENTS, type Domain } from "@/lib/domains/domains";
import { registry } from "@/lib/automations/nodes/registry";
import { isLaterTrigger } from "@/lib/automations/nodes/triggers/later-steps";

/**
 * The payload a trigger's real event would carry for a record, so a simulated run (the dry run,
 * a code step's "Run on a record") sees what a real one would: `order.paid` pins the status to
 * `paid` (from → to), `order.created` carries the status, a Later trigger its step.
 */
export function triggerPayload(
  trigger: { type: string; params: Record<string, unknown> },
  record: { domain: Domain; data: Record<string, unknown> } | null,
): Record<string, unknown> {
  const event = registry.get(trigger.type)?.event ?? "";
  if (!record) return isLaterTrigger(trigger) ? { step: trigger.params.step } : {};
  const current = typeof record.data.status === "string" ? record.data.status : null;
  if (event === `${record.domain}.created`) return { status: current };
  const named = Object.entries(STATUS_EVENTS[record.domain] ?? {}).find(([, type]) => type === event)?.[0];
  if (named) return { from: current === named ? null : current, to: named };
  if (event === `${record.domain}.status_changed`) {
    const to = typeof trigger.params.to === "string" ? trigger.params.to : current;
    const from =
      typeof trigger.params.from === "string" ? trigger.params.from : current === to ? null : current;
    return { from, to };
  }
  if (event === "product.low_stock") {
    const threshold = typeof trigger.params.threshold === "number" ? trigger.params.threshold : 5;
    const inventory = typeof record.data.inventory === "number" ? record.data.inventory : threshold;
    return { from: threshold + 1, to: Math.min(inventory, threshold) };
  }
  return {};
}
