import type { DbOrTx } from "@/lib/db/client";
import { gateMarketing, type GateOutcome } from "@/lib/messaging/gate";
import { lockCustomers } from "@/lib/messaging/locks";
import { ActionDeferred, ActionSkipped, type ActionContext, type DeferContext } from "./executor";

/*
 * The messaging gate (lib/messaging) as the customer-facing steps meet it: Send email and an HTTP
 * step marked "reaches the customer", both marketing. The answer is what the step throws.
 *
 * Several customers on one email (a comma list): each is gated, under all their locks (taken in
 * key order); the email goes only when it may go to every one of them, and then counts against
 * each one's cap. If one is held, the whole email waits — until the latest of their times — and
 * counts for no one meanwhile; if one's turn expired or its path changed, it is skipped for all.
 */

const NO_RUN = "00000000-0000-0000-0000-000000000000";

type GateContext = DeferContext & {
  path: { nodeId: string; result: boolean }[];
  pathChanged: string | null;
  dryRun?: boolean;
};

function answer(gate: GateOutcome, customerId: string): ActionDeferred | ActionSkipped | null {
  if (gate.go) return null;
  if (gate.skip)
    return new ActionSkipped(gate.sentence, { skippedFor: gate.skip, customerId, endsBranch: true });
  return new ActionDeferred(gate.sentence, gate.until, {
    deferredFor: gate.kind,
    customerId,
    until: gate.until.toISOString(),
    customerZone: gate.zone.zone,
    zoneFrom: gate.zone.source,
    shopZone: gate.shopZone,
  });
}

/** The gate's answer for these customers as what the step throws, or null when it goes. */
export async function gateMessage(
  db: DbOrTx,
  customerIds: readonly string[],
  ctx: GateContext,
  now = new Date(),
): Promise<ActionDeferred | ActionSkipped | null> {
  const ids = [...new Set(customerIds)].sort();
  const input = (customerId: string, dryRun: boolean) => ({
    ...ctx,
    runId: ctx.runId ?? NO_RUN,
    customerId,
    dryRun,
  });
  if (ids.length === 0) return null;
  if (ids.length === 1)
    return answer(await gateMarketing(db, input(ids[0]!, ctx.dryRun === true), now), ids[0]!);
  // Several: every lock first (in order), then each decided without writing; then written.
  if (!ctx.dryRun)
    await lockCustomers(
      db,
      ids.map((customerId) => ({ tenantId: ctx.tenantId, customerId })),
    );
  let held: { id: string; gate: Exclude<GateOutcome, { go: true }> } | null = null;
  for (const id of ids) {
    const gate = await gateMarketing(db, input(id, true), now);
    if (gate.go) continue;
    const worse =
      !held ||
      (gate.skip !== undefined && held.gate.skip === undefined) ||
      (gate.skip === undefined && held.gate.skip === undefined && gate.until > held.gate.until);
    if (worse) held = { id, gate };
  }
  if (ctx.dryRun) return held ? answer(held.gate, held.id) : null;
  if (held) return answer(await gateMarketing(db, input(held.id, false), now), held.id);
  for (const id of ids) await gateMarketing(db, input(id, false), now);
  return null;
}

/** In a run: throws `ActionDeferred` (quiet hours, the shop's cap) or `ActionSkipped` (expired, path changed). */
export async function passGate(
  tx: DbOrTx,
  customerIds: readonly string[],
  ctx: ActionContext,
): Promise<void> {
  const held = await gateMessage(tx, customerIds, {
    tenantId: ctx.tenantId,
    automationId: ctx.automationId,
    runId: ctx.runId,
    nodeId: ctx.nodeId,
    eventId: ctx.event.id,
    path: ctx.message?.path ?? [],
    pathChanged: ctx.message?.pathChanged ?? null,
  });
  if (held) throw held;
}
