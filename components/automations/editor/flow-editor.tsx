"use client";

import { ReactFlowProvider } from "@xyflow/react";
import "@xyflow/react/dist/style.css";
import { useRouter } from "next/navigation";
import { useCallback, useMemo, useRef, useState } from "react";
import { ActiveToggleNotices } from "@/components/automations/active-toggle";
import {
  addTargetLabel,
  asBranch,
  exitTarget,
  nextAddTarget,
  type AddTarget,
} from "@/lib/automations/editor/add-target";
import type { EditorFirstPaint } from "@/lib/automations/editor/first-paint";
import type { DryRunResult } from "@/lib/automations/dry-run/result";
import { catalogOf, effectiveDomainIn } from "@/lib/automations/nodes/catalog";
import type { InFlightPolicy } from "@/lib/automations/lifecycle/policies";
import type { AutomationView } from "@/lib/automations/lifecycle/read";
import type { CredentialOption } from "./config/credential-options";
import { EditControls } from "./edit-controls";
import { EditorBanners } from "./editor-banners";
import { EditorCanvas } from "./editor-canvas";
import { EditorHeader } from "./editor-header";
import { EditorPublishDialog } from "./lazy-parts";
import { adoptMovedSecrets } from "./moved-secrets";
import { Palette } from "./palette";
import { SidePanel } from "./side-panel";
import { useAddStep } from "./use-add-step";
import { useAutosave } from "./use-autosave";
import { useCanvasDecorations } from "./use-canvas-decorations";
import { useEditorGraph } from "./use-editor-graph";
import { EditorTeamsProvider } from "./config/approvers-config";
import { useEditorShortcuts } from "./use-editor-shortcuts";
import { useFirstUse } from "./use-first-use";
import { useFlash } from "./use-flash";
import { useFocusStepField } from "./use-focus-step-field";
import { StepSearchDialog } from "./step-search-dialog";
import { useNarrowScreen } from "./use-narrow-screen";
import { useNodeLogic } from "./use-node-logic";
import { useOnceTrue } from "./use-once-true";
import { usePanelTab } from "./use-panel-tab";
import { usePublishReadiness } from "./use-publish-readiness";
import { useStepCommands } from "./use-step-commands";
import { useStepTexts } from "./use-step-texts";
import { useVersionView } from "./use-version-view";

export interface FlowEditorProps {
  automation: AutomationView;
  /** Editors and admins; for a built-in, admins only; nobody while it is archived. */
  canEdit: boolean;
  /** Editors and admins may archive and restore it; never a built-in. */
  canArchive: boolean;
  isAdmin: boolean;
  waitingRuns: number;
  shopTimezone: string;
  /** The shop's credentials, without values, for the steps that choose one. */
  credentials: readonly CredentialOption[];
  /** The node catalog, the draft's sentences and issues, worked out on the server. */
  firstPaint: EditorFirstPaint;
}

/**
 * The flow editor: palette, React Flow canvas and a side panel (the selected step's settings,
 * ready issues, dry run, versions, automation settings). Edits autosave to the draft; Publish
 * makes the draft the next version. A viewer, or anyone looking at an old version, gets the same
 * canvas read-only. This file wires the parts together: the graph and its commands are in the
 * `use-*` hooks beside it and `lib/automations/editor/`, what loads late in `lazy-parts.tsx`.
 */
export function FlowEditor(props: FlowEditorProps) {
  // Outlives the editor below, which starts over from each new version (publish, revert).
  const [notice, setNotice] = useState<string | null>(null);
  return (
    <ReactFlowProvider>
      <ActiveToggleNotices>
        <Editor key={props.automation.version} {...props} notice={notice} onNotice={setNotice} />
      </ActiveToggleNotices>
    </ReactFlowProvider>
  );
}

function Editor({
  automation,
  canEdit,
  canArchive,
  isAdmin,
  shopTimezone,
  credentials,
  waitingRuns,
  firstPaint,
  notice,
  onNotice,
}: FlowEditorProps & { notice: string | null; onNotice(text: string | null): void }) {
  const router = useRouter();
  const catalog = useMemo(() => catalogOf(firstPaint.nodes), [firstPaint.nodes]);
  // The shop's teams, for the Approval step's "Who must approve" lines.
  const editorTeams = useMemo(
    () => Object.entries(firstPaint.facts.approvers?.teams ?? {}).map(([id, team]) => ({ id, ...team })),
    [firstPaint.facts.approvers],
  );
  const { logic, load: loadLogic } = useNodeLogic();
  const [name, setName] = useState(automation.name);
  const [policy, setPolicy] = useState<InFlightPolicy>(automation.inFlightPolicy);
  const [addTarget, setAddTarget] = useState<AddTarget | null>(null);
  const [dryRun, setDryRun] = useState<DryRunResult | null>(null);
  const clearDryRun = useCallback(() => setDryRun(null), []);
  const { viewing, showVersion, backToDraft } = useVersionView(clearDryRun);
  const [publishOpen, setPublishOpen] = useState(false);
  const [searchOpen, setSearchOpen] = useState(false);
  // A step added from the add-step search gets the focus in its first field.
  const focusAddedStep = useRef(false);
  const focusStepField = useFocusStepField();
  // Loaded when first opened, then kept mounted: it animates closed.
  const publishMounted = useOnceTrue(publishOpen);
  const [flash, setFlash] = useFlash();
  const searchRef = useRef<HTMLInputElement>(null);

  // The registry's half of the editor loads with the first sign of use (see `firstPaint`).
  useFirstUse(!logic, loadLogic);
  // Phones get the flow to look at, not to edit (as Shopify Flow does): see EditorBanners.
  const narrow = useNarrowScreen();
  const readOnly = !canEdit || viewing !== null || narrow;
  const editor = useEditorGraph(automation.draftGraph, catalog, readOnly);
  const { nodes, graph, selectedIds, commit, focusStep } = editor;
  const { issues, stepTexts, labelOf } = useStepTexts(graph, logic, firstPaint, catalog);
  const autosave = useAutosave({
    id: automation.id,
    enabled: canEdit,
    payload: { graph, name: name.trim() || automation.name, inFlightPolicy: policy },
    revision: automation.draftRevision,
    savedAt: automation.updatedAt,
    onSecretsMoved: (moved, sent) => {
      editor.setNodes((ns) => adoptMovedSecrets(ns, moved, sent));
      // The new credentials join the pickers' lists.
      router.refresh();
    },
  });

  const selected = selectedIds.length === 1 ? graph.nodes.find((n) => n.id === selectedIds[0]) : undefined;
  // Where the next palette pick goes: the chosen exit, else the selected step's first free exit.
  const nextTarget = nextAddTarget(addTarget, selected, graph, catalog);
  const trigger = graph.nodes.find((n) => catalog.get(n.type)?.category === "trigger");
  const triggerDomain = trigger ? effectiveDomainIn(catalog, trigger) : null;
  const [panel, setPanel] = usePanelTab(selected?.id);

  const focusNode = useCallback(
    (id: string) => {
      focusStep(id);
      setPanel("step");
    },
    [focusStep, setPanel],
  );
  const onAdded = useCallback(
    (id: string) => {
      setAddTarget(null);
      setPanel("step");
      setDryRun(null);
      if (focusAddedStep.current) {
        focusAddedStep.current = false;
        focusStepField(id);
      }
    },
    [setPanel, focusStepField],
  );
  const addStep = useAddStep({
    graph,
    target: nextTarget,
    catalog,
    readOnly,
    logic,
    loadLogic,
    commit,
    onAdded,
    onFlash: setFlash,
    shopTimeZone: shopTimezone,
  });
  const commands = useStepCommands({
    ...editor,
    readOnly,
    onFlash: setFlash,
    onDeleted: clearDryRun,
  });

  // "+" on a line inserts the next step on it; the palette offers a parallel branch instead.
  const onAddAfter = useCallback(
    (nodeId: string, handle: string) => {
      setAddTarget(exitTarget(nodeId, handle, graph));
      searchRef.current?.focus();
    },
    [graph],
  );
  const canvas = useCanvasDecorations({ ...editor, catalog, issues, dryRun, viewing, readOnly, onAddAfter });

  const { unchanged, draftChanged, publishBlocked } = usePublishReadiness(automation, {
    draft: { graph, name, inFlightPolicy: policy },
    issueCount: issues.length,
    logic,
    firstPaint,
  });
  const canPublish = canEdit && !viewing && publishBlocked === null;
  const openStepSearch = useCallback(() => setSearchOpen(true), []);
  const publishByKey = useCallback(() => {
    if (canPublish) setPublishOpen(true);
    else if (publishBlocked) setFlash(publishBlocked);
  }, [canPublish, publishBlocked, setFlash]);
  useEditorShortcuts(readOnly, { ...editor, ...commands, openStepSearch, publish: publishByKey });

  return (
    <EditorTeamsProvider teams={editorTeams}>
      <div
        data-wide
        className="-mx-4 -my-6 flex flex-col sm:-mx-8 md:-my-8 md:h-[calc(100dvh-3.5rem)] md:min-h-[640px] lg:h-dvh"
      >
        <EditorHeader
          automation={automation}
          title={name.trim() || automation.name}
          waitingRuns={waitingRuns}
          canEdit={canEdit}
          saveState={autosave.state}
          onRename={readOnly ? null : setName}
          controls={
            canEdit &&
            !narrow && (
              <EditControls
                automation={automation}
                waitingRuns={waitingRuns}
                readOnly={readOnly}
                canUndo={editor.history.canUndo}
                canRedo={editor.history.canRedo}
                onUndo={editor.undo}
                onRedo={editor.redo}
                publishBlocked={publishBlocked}
                canPublish={canPublish}
                onPublish={() => setPublishOpen(true)}
                canTidy={nodes.length > 0}
                onTidy={() => void commands.tidyUp()}
                canArchive={canArchive}
                beforeArchive={autosave.flush}
              />
            )
          }
        />
        <EditorBanners
          automation={automation}
          canEdit={canEdit}
          canArchive={canArchive}
          narrow={narrow}
          draftChanged={draftChanged}
          notice={notice}
          onDismissNotice={() => onNotice(null)}
          saveState={autosave.state}
          viewingVersion={viewing?.version ?? null}
          onBackToDraft={backToDraft}
        />

        {/* Below md only the canvas shows (read-only); the palette and the panel need the room. */}
        <div className="grid min-h-0 flex-1 grid-cols-1 md:grid-cols-[12rem_minmax(0,1fr)_19rem] xl:grid-cols-[15rem_minmax(0,1fr)_26rem]">
          <div className="hidden min-h-0 md:grid md:grid-cols-[minmax(0,1fr)] md:grid-rows-[minmax(0,1fr)]">
            <Palette
              nodes={firstPaint.nodes}
              disabled={readOnly}
              builtin={Boolean(automation.builtinSlug)}
              target={addTargetLabel(nextTarget, graph, catalog, labelOf)}
              onClearTarget={() => setAddTarget(null)}
              onBranchInstead={
                nextTarget?.edgeId
                  ? () => {
                      setAddTarget(asBranch(nextTarget));
                      searchRef.current?.focus();
                    }
                  : null
              }
              onAdd={addStep}
              searchRef={searchRef}
            />
          </div>
          <EditorCanvas
            nodes={canvas.shownNodes}
            edges={canvas.shownEdges}
            stepTexts={stepTexts}
            decorations={canvas.decorations}
            readOnly={readOnly}
            narrow={narrow}
            empty={nodes.length === 0 && !viewing && !narrow}
            flash={flash}
            onNodesChange={editor.onNodesChange}
            onEdgesChange={editor.onEdgesChange}
            onConnect={commands.onConnect}
            onNodeDragStop={editor.recordCurrent}
          />
          <SidePanel
            panel={panel}
            onPanelChange={setPanel}
            automation={automation}
            canEdit={canEdit}
            isAdmin={isAdmin}
            readOnly={readOnly}
            issues={issues}
            labelOf={labelOf}
            onFocusNode={focusNode}
            draftChanged={draftChanged}
            selected={selected}
            graph={graph}
            stepContext={{ logic, triggerType: trigger?.type ?? null, shopTimezone, dryRun, credentials }}
            stepCommands={{ ...editor, ...commands }}
            triggerDomain={triggerDomain}
            onDryRunResult={setDryRun}
            viewingVersion={viewing?.version ?? null}
            onViewVersion={(version) => void showVersion(version)}
            onNotice={onNotice}
            name={name}
            policy={policy}
            onNameChange={setName}
            onPolicyChange={setPolicy}
          />
        </div>

        {!readOnly && (
          <StepSearchDialog
            open={searchOpen}
            onClose={() => setSearchOpen(false)}
            nodes={firstPaint.nodes}
            builtin={Boolean(automation.builtinSlug)}
            target={addTargetLabel(nextTarget, graph, catalog, labelOf)}
            onAdd={(definition) => {
              focusAddedStep.current = true;
              addStep(definition);
            }}
          />
        )}
        {canEdit && publishMounted && (
          <EditorPublishDialog
            automation={automation}
            draftGraph={graph}
            draftName={name}
            policy={policy}
            unchanged={unchanged}
            open={publishOpen}
            onClose={() => setPublishOpen(false)}
            onPolicyChange={setPolicy}
            onNameChange={setName}
            beforePublish={autosave.flush}
            onNotice={onNotice}
          />
        )}
      </div>
    </EditorTeamsProvider>
  );
}
