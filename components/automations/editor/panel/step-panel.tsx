"use client";

import { useMemo } from "react";
import { Button } from "@/components/ui/button";
import type { DryRunResult } from "@/lib/automations/dry-run/result";
import type { Graph, GraphNode } from "@/lib/automations/graph/schema";
import type { Audience } from "@/lib/automations/nodes/triggers/triggers";
import { SCHEDULE_TRIGGER } from "@/lib/automations/nodes/triggers/trigger-types";
import type { TriggerDomain } from "@/lib/automations/nodes/types";
import { dstRuleSchema, type DstInput } from "@/lib/time/dst";
import type { CredentialOption } from "../step-form/credential-options";
import { ConnectionsEditor, Loading, NodeConfig, SchedulePreview } from "./lazy-children";
import type { NodeLogic } from "../state/node-logic-loader";

/** The audience as the preview reads it: an object, or none (the form may hold anything while typing). */
function scheduleAudience(logic: NodeLogic, value: unknown): Audience | undefined {
  const parsed = logic.audienceSchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

/** The schedule's DST rule when the form holds one; the preview ignores anything else. */
function scheduleDst(value: unknown): DstInput | undefined {
  const parsed = dstRuleSchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

export interface StepPanelProps {
  step: GraphNode;
  graph: Graph;
  /** The registry's half of the editor; the form waits for it. */
  logic: NodeLogic | null;
  readOnly: boolean;
  automationId: string;
  triggerDomain: TriggerDomain | null;
  triggerType: string | null;
  shopTimezone: string;
  /** The last dry run: its record is what the form's token previews show. */
  dryRun: DryRunResult | null;
  credentials: readonly CredentialOption[];
  onParamsChange(params: Record<string, unknown>): void;
  onConnect(handle: string, target: string): void;
  onDisconnect(edgeId: string): void;
  onDelete(): void;
}

/**
 * The Step tab: the selected step's form, a schedule's preview, its Next steps (connecting by
 * keyboard) and Delete step.
 */
export function StepPanel({
  step,
  graph,
  logic,
  readOnly,
  automationId,
  triggerDomain,
  triggerType,
  shopTimezone,
  dryRun,
  credentials,
  onParamsChange,
  onConnect,
  onDisconnect,
  onDelete,
}: StepPanelProps) {
  // The steps a selected step's {steps.<id>.…} tokens may name.
  const earlierSteps = useMemo(
    () => (logic ? logic.stepsBefore(graph, step.id) : []),
    [logic, graph, step.id],
  );
  return (
    <div className="space-y-5">
      {logic ? (
        <NodeConfig
          key={step.id}
          node={{ id: step.id, type: step.type, params: step.params }}
          triggerDomain={triggerDomain}
          triggerType={triggerType}
          otherSteps={earlierSteps}
          previewSource={{
            timeZone: shopTimezone,
            record:
              dryRun?.entity && dryRun.tokenRecord ? { ...dryRun.entity, data: dryRun.tokenRecord } : null,
          }}
          credentials={credentials}
          readOnly={readOnly}
          onParamsChange={onParamsChange}
        />
      ) : (
        <Loading />
      )}
      {logic && step.type === SCHEDULE_TRIGGER && (
        <SchedulePreview
          cron={typeof step.params.cron === "string" ? step.params.cron : ""}
          timezone={typeof step.params.timezone === "string" ? step.params.timezone : ""}
          audience={scheduleAudience(logic, step.params.audience)}
          dst={scheduleDst(step.params.dst)}
          shopTimeZone={shopTimezone}
          automationId={automationId}
        />
      )}
      <ConnectionsEditor
        nodeId={step.id}
        graph={graph}
        readOnly={readOnly}
        onConnect={onConnect}
        onDisconnect={onDisconnect}
      />
      {!readOnly && (
        <Button size="sm" variant="danger-outline" onClick={onDelete}>
          Delete step
        </Button>
      )}
    </div>
  );
}
