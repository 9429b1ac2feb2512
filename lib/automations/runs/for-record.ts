import crypto from "node:crypto";
import { z } from "zod";
import { recordAudit } from "@/lib/audit";
import type { Caller } from "@/lib/identity/caller";
import { getDb } from "@/lib/db/client";
import { DOMAIN_LABELS, DOMAINS } from "@/lib/domains/domains";
import { loadEntity, parseDomain, parseEntityId } from "@/lib/entities/service";
import { recordEvents, runsForEvent } from "@/lib/automations/engine/start/events";
import { AppError, notFound, parseOrThrow } from "@/lib/errors";
import { effectiveDomain, registry, summariseNode, triggerMatches } from "@/lib/automations/nodes/registry";
import { getRun, type RunDetail } from "./detail";
import { automationSubject, liveGraph, loadRow } from "@/lib/automations/lifecycle/read";

/**
 * Runs one automation for one stored record now (MCP `run_automation` with `entity`): records the
 * event its trigger listens to, about that record, aimed at that automation's trigger only — the
 * path an inbound webhook takes (`recordEvents` with a target) — so it is a real run on the
 * active version, started in the event's transaction, and no other automation hears it. The
 * payload is what the record's real event would carry now (`status`, or `from`/`to` with the
 * record's current status), so the first leg pins the status the record has.
 */
export const runForRecordInput = z.strictObject({
  domain: z.enum(DOMAINS, `must be one of ${DOMAINS.join(", ")}`),
  id: z.string().trim().min(1).max(200),
});

/**
 * Unlike a simulation (`triggerPayload`, which pins the status the trigger fires for), a real run
 * on a record carries the record's status as it is: nothing is pretended about it.
 */
function payloadFor(event: string, data: Record<string, unknown>): Record<string, unknown> {
  const status = typeof data.status === "string" ? data.status : null;
  if (event.endsWith(".created")) return { status };
  if (event === "product.low_stock") {
    const inventory = typeof data.inventory === "number" ? data.inventory : null;
    return { from: inventory === null ? null : inventory + 1, to: inventory };
  }
  return { from: null, to: status };
}

export async function runForRecord(
  caller: Caller,
  automationId: string,
  body: unknown,
): Promise<{ run: RunDetail }> {
  const input = parseOrThrow(runForRecordInput, body, "The record to run on is invalid");
  const domain = parseDomain(input.domain);
  const id = parseEntityId(input.id);
  const tenantId = caller.tenant.id;
  const runId = await getDb().transaction(async (tx) => {
    const row = await loadRow(tx, tenantId, automationId);
    const graph = liveGraph(row, "run it");
    const one = DOMAIN_LABELS[domain].one;
    const trigger = graph.nodes.find(
      (n) => registry.get(n.type)?.category === "trigger" && effectiveDomain(n) === domain,
    );
    const definition = trigger && registry.get(trigger.type);
    if (!trigger || !definition?.event) {
      throw new AppError(
        422,
        "invalid",
        `'${row.name}' has no trigger about ${one}s, so it cannot run on one.`,
      );
    }
    const entity = await loadEntity(tx, tenantId, domain, id);
    if (!entity) throw notFound(`The ${one} '${id}'`);
    const payload = payloadFor(definition.event, entity);
    if (!triggerMatches(definition, trigger.params, { type: definition.event, payload })) {
      throw new AppError(
        409,
        "conflict",
        `'${summariseNode(trigger)}' would not start for the ${one} '${id}' as it is now, so no run was started.`,
      );
    }
    const eventId = `evt_${crypto.randomUUID()}`;
    await recordEvents(
      tx,
      tenantId,
      [{ id: eventId, type: definition.event, domain, entityId: id, payload }],
      { automationId: row.id, nodeId: trigger.id },
    );
    const [run] = await runsForEvent(tx, tenantId, [eventId]);
    if (!run)
      throw new AppError(409, "conflict", "The automation changed while the run was starting; try again.");
    await recordAudit(tx, caller, {
      action: "automation.run_on_record",
      ...automationSubject(row),
      detail: { name: row.name, version: row.version, domain, entityId: id, runId: run.id },
    });
    return run.id;
  });
  return { run: await getRun(tenantId, runId) };
}
