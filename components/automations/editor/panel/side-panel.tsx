"use client";

import { useOnceTrue } from "@/components/ui/hooks/use-once-true";
import { effectiveDomainIn } from "@/lib/automations/nodes/catalog";
import { BacktestTab, DryRunPanel, SettingsTab, StepPanel, VersionsTab } from "./lazy-parts";
import { PublishState } from "../header/publish-state";
import { ReadyIssuesPanel } from "./ready-issues-panel";
import { useEditor, useEditorApi, useEditorView } from "../state/editor-context";
import { selectReadOnly, selectSelected, type Panel } from "../state/store";

export const PANEL_TABS: { id: Panel; label: string }[] = [
  { id: "issues", label: "Issues" },
  { id: "step", label: "Step" },
  { id: "dry-run", label: "Dry run" },
  { id: "backtest", label: "Backtest" },
  { id: "versions", label: "Versions" },
  { id: "settings", label: "Settings" },
];

/**
 * The editor's side panel: tabs for the ready issues (or the publish state when there are none),
 * the selected step, the dry run, the versions and the automation's settings. Everything it shows
 * comes from the editor's store and view; it takes no props.
 */
export function SidePanel() {
  const view = useEditorView();
  const { automation, canEdit, issues, catalog } = view;
  const api = useEditorApi();
  const actions = api.getState();
  const panel = useEditor((s) => s.panel);
  const selected = useEditor(selectSelected);
  const graph = useEditor((s) => s.graph);
  const readOnly = useEditor(selectReadOnly);
  const logic = useEditor((s) => s.logic);
  const dryRun = useEditor((s) => s.dryRun);
  const viewing = useEditor((s) => s.viewing);
  const name = useEditor((s) => s.name);
  const policy = useEditor((s) => s.policy);
  const trigger = graph.nodes.find((n) => catalog.get(n.type)?.category === "trigger");
  const triggerDomain = trigger ? effectiveDomainIn(catalog, trigger) : null;
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
            onClick={() => actions.setPanel(tab.id)}
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
              changed={view.draftChanged}
              canEdit={canEdit}
            />
          ) : (
            <ReadyIssuesPanel issues={issues} labelOf={view.labelOf} onFocusNode={view.focusNode} />
          ))}
        {panel === "step" &&
          (selected ? (
            <StepPanel
              logic={logic}
              triggerType={trigger?.type ?? null}
              shopTimezone={view.shopTimezone}
              dryRun={dryRun}
              credentials={view.credentials}
              step={selected}
              graph={graph}
              readOnly={readOnly}
              automationId={automation.id}
              triggerDomain={triggerDomain}
              onParamsChange={(params) => actions.updateParams(selected.id, params)}
              onConnect={(handle, target) => actions.connect(selected.id, handle, target)}
              onDisconnect={(edgeId) => actions.disconnect(edgeId, selected.id)}
              onDelete={actions.deleteSelected}
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
              triggerDomain={triggerDomain}
              getGraph={() => graph}
              onResult={actions.setDryRun}
            />
          </div>
        )}
        {panel === "backtest" && (
          <BacktestTab
            automationId={automation.id}
            version={automation.version}
            canEdit={canEdit}
            getGraph={() => graph}
          />
        )}
        {panel === "versions" && (
          <VersionsTab
            automationId={automation.id}
            currentVersion={automation.version}
            canEdit={canEdit}
            viewing={viewing?.version ?? null}
            onView={view.showVersion}
            onNotice={view.onNotice}
          />
        )}
        {panel === "settings" && (
          <SettingsTab
            automation={automation}
            isAdmin={view.isAdmin}
            name={name}
            policy={policy}
            readOnly={readOnly}
            onNameChange={actions.setName}
            onPolicyChange={actions.setPolicy}
            onNotice={view.onNotice}
          />
        )}
      </div>
    </aside>
  );
}
