import crypto from "node:crypto";
import type { RunEntity } from "@/lib/automations/nodes/context";
import { registry } from "@/lib/automations/nodes/registry";
import { SPLIT_NODE_TYPE } from "@/lib/automations/nodes/split/split-branches";
import type { Graph } from "@/lib/automations/graph/schema";
import type { NewTouch } from "@/lib/automations/store/touches";
import type { LegContext } from "./leg";

/**
 * What the engine records for "does it pay" (docs/performance-of-automations.md): the touches a
 * delivered customer-facing step makes, and whether a run's customer is held out. Pure; the
 * phase and the outside step write what it returns in their own transactions.
 */

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The customer a run is about: the record when it is a customer, else the record's customer. */
export function runCustomer(entity: RunEntity | null): { id: string | null; email: string | null } | null {
  if (!entity) return null;
  const lower = (value: unknown) =>
    typeof value === "string" && EMAIL.test(value.trim()) ? value.trim().toLowerCase() : null;
  if (entity.domain === "customer") return { id: entity.id, email: lower(entity.data.email) };
  const customer = entity.customer ?? null;
  const id =
    typeof customer?.id === "string"
      ? customer.id
      : typeof entity.data.customerId === "string" && entity.data.customerId !== ""
        ? entity.data.customerId
        : null;
  const email = lower(customer?.email) ?? lower(entity.data.email);
  return id === null && email === null ? null : { id, email };
}

/**
 * The branch of the run's latest Split step, as far as this leg knows its steps (its own and,
 * after a wait, every earlier leg's): `{ branch }` of the split's output. Null without a split.
 */
export function splitBranch(ctx: Pick<LegContext, "steps">, graph: Graph): string | null {
  const splits = new Set(graph.nodes.filter((n) => n.type === SPLIT_NODE_TYPE).map((n) => n.id));
  if (splits.size === 0) return null;
  let branch: string | null = null;
  for (const [nodeId, output] of Object.entries(ctx.steps))
    if (splits.has(nodeId) && typeof output.branch === "string") branch = output.branch;
  return branch;
}

/**
 * The touches of a customer-facing step that delivered: Send email, one per recipient address
 * (the run's customer's id on the address that is theirs); an HTTP step that reaches the customer,
 * the run's customer. None for a step that is not customer-facing.
 */
export function messageTouches(
  ctx: LegContext,
  graph: Graph,
  step: { nodeId: string; nodeType: string; params: Record<string, unknown> },
  request: Record<string, unknown>,
): NewTouch[] {
  const definition = registry.get(step.nodeType);
  if (!definition?.customerFacing?.(step.params)) return [];
  const customer = runCustomer(ctx.entity);
  const base = {
    tenantId: ctx.tenantId,
    kind: "message" as const,
    automationId: ctx.automationId,
    automationVersion: ctx.automationVersion,
    runId: ctx.runId,
    nodeId: step.nodeId,
    leg: ctx.leg,
    branch: splitBranch(ctx, graph),
  };
  if (typeof request.to === "string") {
    const addresses = [
      ...new Set(
        request.to
          .split(",")
          .map((a) => a.trim().toLowerCase())
          .filter((a) => EMAIL.test(a)),
      ),
    ].slice(0, 20);
    return addresses.map((email) => ({
      ...base,
      email,
      customerId: customer?.email === email ? customer.id : null,
    }));
  }
  if (!customer) return [];
  return [{ ...base, customerId: customer.id, email: customer.email }];
}

/**
 * Whether a customer is held out of an automation with `percent` % held out: a stable hash of
 * automation and customer, so the same customer is always held out or always treated.
 */
export function isHeldOut(automationId: string, customerKey: string, percent: number): boolean {
  if (percent <= 0) return false;
  const digest = crypto.createHash("sha256").update(`${automationId}:${customerKey}`).digest();
  return (digest.readUInt32BE(0) / 2 ** 32) * 100 < percent;
}

/** The entry a first leg records when its automation holds customers out: held out or treated. */
export function entryTouch(ctx: LegContext, triggerNodeId: string, percent: number): NewTouch | null {
  if (percent <= 0) return null;
  const customer = runCustomer(ctx.entity);
  if (!customer) return null;
  const heldOut = isHeldOut(ctx.automationId, customer.id ?? customer.email!, percent);
  return {
    tenantId: ctx.tenantId,
    kind: heldOut ? "holdout" : "entered",
    customerId: customer.id,
    email: customer.email,
    automationId: ctx.automationId,
    automationVersion: ctx.automationVersion,
    runId: ctx.runId,
    nodeId: triggerNodeId,
    leg: 1,
    branch: null,
  };
}
