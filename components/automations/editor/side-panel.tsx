"use client";

import { useOnceTrue } from "./use-once-true";
import type { DryRunResult } from "@/lib/automations/dry-run/result";
import type { Graph, GraphNode } from "@/lib/automations/graph/schema";
import type { ReadyIssue } from "@/lib/automations/review/validate";
import type { TriggerDomain } from "@/lib/automations/nodes/types";
import type { InFlightPolicy } from "@/lib/automations/lifecycle/policies";
import type { AutomationView } from "@/lib/automations/lifecycle/read";
import { BacktestTab, DryRunPanel, SettingsTab, StepPanel, VersionsTab } from "./lazy-parts";
import { PublishState } from "./panels/publish-state";
import { ReadyIssuesPanel } from "./ready-issues-panel";
import type { StepPanelProps } from "./step-panel";

export type Panel = "step" | "issues" | "settings" | "versions" | "dry-run" | "backtest";

export const PANEL_TABS: { id: Panel; label: string }[] = [
  { id: "issues", label: "Issues" },
  { id: "step", label: "Step" },
  { id: "dry-run", label: "Dry run" },
  { id: "backtest", label: "Backtest" },
  { id: "versions", label: "Versions" },
  { id: "settings", label: "Settings" },
];

export interface SidePanelProps {
  panel: Panel;
  onPanelChange(panel: Panel): void;
  automation: AutomationView;
  canEdit: boolean;
  isAdmin: boolean;
  readOnly: boolean;
  issues: ReadyIssue[];
  labelOf(nodeId: string): string;
  onFocusNode(nodeId: string): void;
  /** Whether the draft differs from the active version, for the publish state. */
  draftChanged: boolean;
  /** The one selected step, for the Step tab; undefined when none is, or several are. */
  selected: GraphNode | undefined;
  graph: Graph;
  /** What the Step tab's form needs besides the step. */
  stepContext: Pick<StepPanelProps, "logic" | "triggerType" | "shopTimezone" | "dryRun" | "credentials">;
  stepCommands: {
    updateParams(stepId: string, params: Record<string, unknown>): void;
    connect(stepId: string, handle: string, target: string): void;
    disconnect(edgeId: string, stepId: string): void;
    deleteSelected(): void;
  };
  triggerDomain: TriggerDomain | null;
  onDryRunResult(result: DryRunResult | null): void;
  /** The old version shown on the canvas, or null (the draft). */
  viewingVersion: number | null;
  onViewVersion(version: { version: number; graph: Graph } | null): void;
  onNotice(text: string): void;
  name: string;
  policy: InFlightPolicy;
  onNameChange(name: string): void;
  onPolicyChange(policy: InFlightPolicy): void;
}

/**
 * The editor's side panel: tabs for the ready issues (or the publish state when there are none),
 * the selected step, the dry run, the versions and the automation's settings.
 */
export function SidePanel(props: SidePanelProps) {
  const { panel, onPanelChange, automation, canEdit, issues, selected, stepCommands } = props;
  // The dry run stays mounted once opened (its result goes with the path on the canvas), and
  // does not load before it is wanted.
  const dryRunMounted = useOnceTrue(panel === "dry-run");

  return (
    <aside aria-label="Details" className="hidden min-h-0 flex-col border-l border-zinc-200 bg-white md:flex">
      {/* Wraps rather than scrolls when the panel is narrow, so no tab is ever cut off. */}
      <div
        role="tablist"
        aria-label="Panels"
        className="flex flex-wrap gap-x-0.5 border-b border-zinc-200 px-1.5 pt-1.5"
      >
        {PANEL_TABS.map((tab) => (
          <button
            key={tab.id}
            type="button"
            role="tab"
            aria-selected={panel === tab.id}
            onClick={() => onPanelChange(tab.id)}
            className={`rounded-t-md border-b-2 px-1.5 py-1.5 text-sm font-medium whitespace-nowrap ${panel === tab.id ? "border-indigo-600 text-indigo-700" : "border-transparent text-zinc-600 hover:text-zinc-900"}`}
          >
            {tab.label}
            {tab.id === "issues" && issues.length > 0 && (
              <span className="ml-1 rounded-full bg-red-100 px-1.5 text-xs text-red-800">
                {issues.length}
              </span>
            )}
          </button>
        ))}
      </div>
      <div
        role="tabpanel"
        aria-label={PANEL_TABS.find((t) => t.id === panel)?.label}
        className="min-h-0 flex-1 overflow-y-auto p-4"
      >
        {panel === "issues" &&
          (issues.length === 0 ? (
            <PublishState
              status={automation.status}
              version={automation.version}
              changed={props.draftChanged}
              canEdit={canEdit}
            />
          ) : (
            <ReadyIssuesPanel issues={issues} labelOf={props.labelOf} onFocusNode={props.onFocusNode} />
          ))}
        {panel === "step" &&
          (selected ? (
            <StepPanel
              {...props.stepContext}
              step={selected}
              graph={props.graph}
              readOnly={props.readOnly}
              automationId={automation.id}
              triggerDomain={props.triggerDomain}
              onParamsChange={(params) => stepCommands.updateParams(selected.id, params)}
              onConnect={(handle, target) => stepCommands.connect(selected.id, handle, target)}
              onDisconnect={(edgeId) => stepCommands.disconnect(edgeId, selected.id)}
              onDelete={stepCommands.deleteSelected}
            />
          ) : (
            <p className="text-sm text-zinc-600">
              Select a step on the canvas to set it up. With the keyboard: Tab to a step and press Enter.
            </p>
          ))}
        {/* Kept mounted while hidden: its result stays with the highlighted path on the canvas. */}
        {dryRunMounted && (
          <div hidden={panel !== "dry-run"}>
            <DryRunPanel
              automationId={automation.id}
              triggerDomain={props.triggerDomain}
              getGraph={() => props.graph}
              onResult={props.onDryRunResult}
            />
          </div>
        )}
        {panel === "backtest" && (
          <BacktestTab
            automationId={automation.id}
            version={automation.version}
            canEdit={canEdit}
            getGraph={() => props.graph}
          />
        )}
        {panel === "versions" && (
          <VersionsTab
            automationId={automation.id}
            currentVersion={automation.version}
            canEdit={canEdit}
            viewing={props.viewingVersion}
            onView={props.onViewVersion}
            onNotice={props.onNotice}
          />
        )}
        {panel === "settings" && (
          <SettingsTab
            automation={automation}
            isAdmin={props.isAdmin}
            name={props.name}
            policy={props.policy}
            readOnly={props.readOnly}
            onNameChange={props.onNameChange}
            onPolicyChange={props.onPolicyChange}
            onNotice={props.onNotice}
          />
        )}
      </div>
    </aside>
  );
}
