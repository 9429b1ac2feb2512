import crypto from "node:crypto";
import type { Tx } from "@/lib/db/client";
import type { RunEvent } from "@/lib/db/schema";
import { startPlanned } from "./insert";
import type { PlannedRun } from "./plan";

/** A re-run to start: the run it repeats, the version it runs on, and where its first leg starts. */
export interface Rerun {
  of: {
    id: string;
    automationId: string;
    triggerNodeId: string;
    event: RunEvent;
    domain: string;
    entityId: string | null;
  };
  /** The automation's active version now. */
  version: number;
  /** The node the first leg starts at, itself included; null: from the trigger. */
  fromNodeId: string | null;
}

/**
 * Starts re-runs (runs/rerun.ts) in the caller's transaction, with their first-leg jobs: each a
 * NEW run of the same event under a new id (a run is unique per automation and event), with no
 * status pinned — it reads the record as it is now. Returns the new runs' ids, in order.
 *
 * Not capped: a re-run is a person's explicit "run this again", one at a time or a bulk they saw
 * counted before confirming, as a release of held runs is (release.ts). Caps limit what triggers
 * start on their own (SPEC §2 "Alerts and caps": storms, one email per customer); holding what a
 * person just asked for would only make them release it. A re-run still counts toward the caps of
 * the runs triggers start after it.
 */
export async function startReruns(tx: Tx, tenantId: string, reruns: Rerun[]): Promise<string[]> {
  const occurredAt = new Date().toISOString();
  const planned: PlannedRun[] = reruns.map(({ of, version, fromNodeId }) => {
    const { occurredAt: _occurredAt, ...event } = {
      ...of.event,
      id: `rerun_${crypto.randomUUID()}`,
      entityStatus: null,
    };
    return {
      automationId: of.automationId,
      automationVersion: version,
      eventId: event.id,
      triggerNodeId: of.triggerNodeId,
      event,
      domain: of.domain,
      entityId: of.entityId,
      heldReason: null,
      rerunOf: of.id,
      rerunFrom: fromNodeId,
    };
  });
  return startPlanned(tx, tenantId, planned, { capsOf: null, occurredAt: () => occurredAt });
}
