"use client";

import {
  applyEdgeChanges,
  applyNodeChanges,
  Background,
  Controls,
  MiniMap,
  ReactFlow,
  ReactFlowProvider,
  useReactFlow,
  type Connection,
  type EdgeChange,
  type NodeChange,
} from "@xyflow/react";
import "@xyflow/react/dist/style.css";
import dynamic from "next/dynamic";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useCallback, useEffect, useId, useLayoutEffect, useMemo, useRef, useState } from "react";
import { flushSync } from "react-dom";
import { ActiveToggle, ActiveToggleNotices } from "@/components/automations/active-toggle";
import { AutomationStatusBadge } from "@/components/automations/automation-status";
import { ArchiveButton, RestoreButton } from "@/components/automations/archive-button";
import { RunNowButton } from "@/components/automations/run-now-button";
import { laterSteps } from "@/lib/automations/graph/later-steps";
import { Button } from "@/components/ui/button";
import { Menu, MenuItem } from "@/components/ui/menu";
import { Notice } from "@/components/ui/notice";
import { listVersionsAction } from "@/lib/actions/automations/list-versions";
import type { EditorFirstPaint } from "@/lib/automations/editor/first-paint";
import { NODE_HEIGHT, NODE_WIDTH } from "@/lib/automations/editor/node-size";
import {
  fromFlow,
  newEdgeId,
  newNodeId,
  removeSteps,
  toFlow,
  type StepEdge,
  type StepNode,
} from "@/lib/automations/editor/flow";
import type { DryRunResult } from "@/lib/automations/dry-run/dry-run";
import type { Graph, GraphNode } from "@/lib/automations/graph/schema";
import {
  catalogOf,
  effectiveDomainIn,
  type NodeInfo,
  type NodeLookup,
} from "@/lib/automations/nodes/catalog";
import type { Audience } from "@/lib/automations/nodes/triggers";
import type { InFlightPolicy } from "@/lib/automations/lifecycle/policies";
import type { AutomationView } from "@/lib/automations/lifecycle/read";
import { Palette } from "./palette";
import { draftMatchesActive, publishBlockedReason } from "./panels/publish-text";
import { PublishState } from "./panels/publish-state";
import { ReadyIssuesPanel } from "./ready-issues-panel";
import { SaveStatus } from "./save-status";
import {
  DecorationsContext,
  STEP_NODE_TYPES,
  StepTextsContext,
  type CanvasDecorations,
  type StepTexts,
} from "./step-nodes";
import { useAutosave } from "./use-autosave";
import { useHistory } from "./use-history";
import { useNarrowScreen } from "./use-narrow-screen";
import { useNodeLogic, type NodeLogic } from "./use-node-logic";
import { dryRunStatuses } from "./dry-run-statuses";
import type { CredentialOption } from "./config/credential-options";
import { adoptMovedSecrets } from "./moved-secrets";

/*
 * What the first paint does not show loads when it is first needed (issue 13: the editor's
 * first-load JS, `npm run bench -- editor-js`): the step form, the other tabs, the publish
 * dialog, dagre (`layout.ts`, only on "Tidy up"), and the node registry with zod
 * (`node-logic.ts`, on the first pointer, key or focus; the page's `firstPaint` stands in).
 */
function Loading() {
  return <p className="text-sm text-zinc-500">Loading…</p>;
}
const NodeConfig = dynamic(() => import("./config/node-config").then((m) => m.NodeConfig), {
  loading: Loading,
});
// Only an active flow with a Later trigger shows it; it brings the Later action's definition and zod.
const TryLaterButton = dynamic(() =>
  import("@/components/automations/try-later-button").then((m) => m.TryLaterButton),
);
const ConnectionsEditor = dynamic(() => import("./connections-editor").then((m) => m.ConnectionsEditor));
const SchedulePreview = dynamic(() =>
  import("@/components/automations/schedule-preview").then((m) => m.SchedulePreview),
);
const DryRunPanel = dynamic(() => import("./panels/dry-run-panel").then((m) => m.DryRunPanel), {
  loading: Loading,
});
const VersionsPanel = dynamic(() => import("./panels/versions-panel").then((m) => m.VersionsPanel), {
  loading: Loading,
});
const SettingsPanel = dynamic(() => import("./settings-panel").then((m) => m.SettingsPanel), {
  loading: Loading,
});
const ResetBuiltinButton = dynamic(() =>
  import("@/components/automations/reset-builtin-button").then((m) => m.ResetBuiltinButton),
);
const PublishDialog = dynamic(() => import("./panels/publish-dialog").then((m) => m.PublishDialog));

const SCHEDULE_TRIGGER = "auto.trigger.schedule";

type Panel = "step" | "issues" | "settings" | "versions" | "dry-run";

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

/** Where a new step goes and what it connects from: an exit of a step, or nowhere. */
interface AddTarget {
  nodeId: string;
  handle: string;
}

export const PANEL_TABS: { id: Panel; label: string }[] = [
  { id: "issues", label: "Issues" },
  { id: "step", label: "Step" },
  { id: "dry-run", label: "Dry run" },
  { id: "versions", label: "Versions" },
  { id: "settings", label: "Settings" },
];

/** Undo's and Redo's arrow: a curve back, or its mirror image forward. */
function HistoryArrow({ direction }: { direction: "back" | "forward" }) {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 20 20"
      className={`size-4 ${direction === "forward" ? "-scale-x-100" : ""}`}
      fill="none"
      stroke="currentColor"
      strokeWidth="1.75"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      <path d="M7.5 4.5 4 8l3.5 3.5" />
      <path d="M4 8h8a4 4 0 0 1 0 8H9" />
    </svg>
  );
}

/** The audience as the preview reads it: an object, or none (the form may hold anything while typing). */
function scheduleAudience(logic: NodeLogic, value: unknown): Audience | undefined {
  const parsed = logic.audienceSchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

/** A step's first exit with nothing connected yet (else its first exit); null when it has none. */
function firstFreeExit(node: GraphNode, graph: Graph, nodes: NodeLookup): AddTarget | null {
  const outs = nodes.get(node.type)?.handles.out ?? [];
  const handle =
    outs.find((h) => !graph.edges.some((e) => e.source === node.id && e.sourceHandle === h)) ?? outs[0];
  return handle ? { nodeId: node.id, handle } : null;
}

function isTyping(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLElement &&
    (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName))
  );
}

/**
 * How far right of its source a new step goes: under its exit, so branches do not stack — a
 * condition's true left and false right, an approval's approved, rejected, timed out in a row.
 */
function exitOffset(type: string, handle: string | undefined, nodes: NodeLookup): number {
  const exits = nodes.get(type)?.handles.out ?? [];
  const index = handle ? exits.indexOf(handle) : -1;
  if (exits.length < 2 || index < 0) return 0;
  return (index - (exits.length - 1) / 2) * (NODE_WIDTH + 80);
}

/**
 * The flow editor: palette, React Flow canvas and a side panel (the selected step's settings,
 * ready issues, dry run, versions, automation settings). Edits autosave to the draft; Publish
 * makes the draft the next version. A viewer, or anyone looking at an old version, gets the same
 * canvas read-only.
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
  const flow = useReactFlow<StepNode, StepEdge>();
  // The draft as it was when this version opened; later refreshes of the props do not reset edits.
  const catalog = useMemo(() => catalogOf(firstPaint.nodes), [firstPaint.nodes]);
  const { logic, load: loadLogic } = useNodeLogic();
  const [initial] = useState(() => toFlow(automation.draftGraph, catalog));
  const [nodes, setNodes] = useState<StepNode[]>(initial.nodes);
  const [edges, setEdges] = useState<StepEdge[]>(initial.edges);
  const [name, setName] = useState(automation.name);
  const [policy, setPolicy] = useState<InFlightPolicy>(automation.inFlightPolicy);
  const [panel, setPanel] = useState<Panel>("issues");
  const [addTarget, setAddTarget] = useState<AddTarget | null>(null);
  const [viewing, setViewing] = useState<{ version: number; graph: Graph } | null>(null);
  const [dryRun, setDryRun] = useState<DryRunResult | null>(null);
  const [publishOpen, setPublishOpen] = useState(false);
  const [flash, setFlash] = useState<string | null>(null);
  // The active version's name and policy (the view carries only its steps), for "nothing to publish".
  const [activeMeta, setActiveMeta] = useState<{ name: string; inFlightPolicy: InFlightPolicy } | null>(null);
  const publishReasonId = useId();
  const clipboard = useRef<Graph | null>(null);
  const searchRef = useRef<HTMLInputElement>(null);

  const graph = useMemo(() => fromFlow(nodes, edges), [nodes, edges]);

  // The registry's half of the editor loads with the first sign of use: a pointer over the page,
  // a press, a key or a focus. Nothing needs it before that (see `firstPaint`).
  useEffect(() => {
    if (logic) return;
    const wake = () => void loadLogic();
    const events = ["pointerover", "pointerdown", "keydown", "focusin"] as const;
    for (const type of events) document.addEventListener(type, wake, { capture: true, passive: true });
    return () => {
      for (const type of events) document.removeEventListener(type, wake, { capture: true });
    };
  }, [logic, loadLogic]);

  useEffect(() => {
    if (automation.version === 0) return;
    let live = true;
    listVersionsAction({ id: automation.id }).then(
      (result) => {
        const active = result.ok ? result.data.find((v) => v.version === automation.version) : undefined;
        if (live && active) setActiveMeta({ name: active.name, inFlightPolicy: active.inFlightPolicy });
      },
      // Unknown, Publish stays enabled and the server decides; nothing to show here.
      () => {},
    );
    return () => {
      live = false;
    };
  }, [automation.id, automation.version]);
  const history = useHistory<Graph>(graph);
  // Phones get the flow to look at, not to edit (as Shopify Flow does): see the notice below.
  const narrow = useNarrowScreen();
  const readOnly = !canEdit || viewing !== null || narrow;
  const archived = automation.status === "archived";
  // Until the registry loads, nothing has changed a step's params: the server's issues and
  // sentences hold (a move, a deletion or a connection waits on the pointer that loads it).
  const issues = useMemo(
    () => (logic ? logic.validate(graph) : firstPaint.issues),
    [logic, graph, firstPaint.issues],
  );
  const summaryOf = useCallback(
    (node: { id: string; type: string; params: Record<string, unknown> }) =>
      logic
        ? logic.summariseNode(node)
        : (firstPaint.summaries[node.id] ?? catalog.get(node.type)?.label ?? node.type),
    [logic, firstPaint.summaries, catalog],
  );
  const stepTexts = useMemo<StepTexts>(
    () => ({ info: (type) => catalog.get(type), summary: summaryOf }),
    [catalog, summaryOf],
  );
  const autosave = useAutosave({
    id: automation.id,
    enabled: canEdit,
    payload: { graph, name: name.trim() || automation.name, inFlightPolicy: policy },
    revision: automation.draftRevision,
    savedAt: automation.updatedAt,
    onSecretsMoved: (moved, sent) => {
      setNodes((ns) => adoptMovedSecrets(ns, moved, sent));
      // The new credentials join the pickers' lists.
      router.refresh();
    },
  });

  const selectedIds = nodes.filter((n) => n.selected).map((n) => n.id);
  const selected = selectedIds.length === 1 ? graph.nodes.find((n) => n.id === selectedIds[0]) : undefined;
  // Where the next palette pick goes: the chosen exit, else the selected step's first free exit.
  const nextTarget = addTarget ?? (selected ? firstFreeExit(selected, graph, catalog) : null);
  const trigger = graph.nodes.find((n) => catalog.get(n.type)?.category === "trigger");
  const triggerDomain = trigger ? effectiveDomainIn(catalog, trigger) : null;
  // The steps a selected step's {steps.<id>.…} tokens may name.
  const earlierSteps = useMemo(
    () => (logic && selected?.id ? logic.stepsBefore(graph, selected.id) : []),
    [logic, graph, selected],
  );
  const labelOf = useCallback(
    (id: string) => {
      const node = graph.nodes.find((n) => n.id === id);
      return node ? summaryOf(node) : id;
    },
    [graph, summaryOf],
  );

  /** Replaces the canvas with `next` and remembers it for undo. */
  const commit = useCallback(
    (next: Graph, selectIds: string[] = []) => {
      const flowState = toFlow(next, catalog);
      setNodes(flowState.nodes.map((n) => ({ ...n, selected: selectIds.includes(n.id) })));
      setEdges(flowState.edges);
      history.record(next);
    },
    [history, catalog],
  );

  const restore = useCallback(
    (snapshot: Graph | undefined) => {
      if (!snapshot) return;
      const flowState = toFlow(snapshot, catalog);
      setNodes(flowState.nodes);
      setEdges(flowState.edges);
    },
    [catalog],
  );

  const focusNode = useCallback(
    (id: string) => {
      setNodes((ns) => ns.map((n) => ({ ...n, selected: n.id === id })));
      const node = flow.getNode(id);
      if (node) {
        void flow.setCenter(node.position.x + NODE_WIDTH / 2, node.position.y + NODE_HEIGHT / 2, {
          zoom: Math.max(flow.getZoom(), 0.9),
          duration: 300,
        });
      }
      setPanel("step");
    },
    [flow],
  );

  /** Adds a step of `definition`'s type with its default params (from the registry, loaded now if need be). */
  const placeStep = useCallback(
    (definition: NodeInfo, params: Record<string, unknown>) => {
      const taken = graph.nodes.map((n) => n.id);
      const id = newNodeId(definition.type, taken);
      // Triggers stand alone; other steps go after the next target, when there is one.
      const from = definition.category === "trigger" ? null : nextTarget;
      const source = from ? graph.nodes.find((n) => n.id === from.nodeId) : undefined;
      const lowest = graph.nodes.reduce((y, n) => Math.max(y, n.position?.y ?? 0), 0);
      const position =
        definition.category === "trigger"
          ? { x: 0, y: Math.min(0, ...graph.nodes.map((n) => n.position?.y ?? 0)) - NODE_HEIGHT - 80 }
          : source?.position
            ? {
                x: source.position.x + exitOffset(source.type, from?.handle, catalog),
                y: source.position.y + NODE_HEIGHT + 80,
              }
            : { x: 0, y: graph.nodes.length ? lowest + NODE_HEIGHT + 80 : 0 };
      const node = { id, type: definition.type, params, position };
      const edgesNext =
        from && definition.handles.in
          ? [
              ...graph.edges,
              {
                id: newEdgeId(
                  from.nodeId,
                  from.handle,
                  id,
                  graph.edges.map((e) => e.id),
                ),
                source: from.nodeId,
                sourceHandle: from.handle,
                target: id,
              },
            ]
          : graph.edges;
      commit({ nodes: [...graph.nodes, node], edges: edgesNext }, [id]);
      setAddTarget(null);
      setPanel("step");
      setDryRun(null);
      requestAnimationFrame(() => {
        void flow.setCenter(position.x + NODE_WIDTH / 2, position.y + NODE_HEIGHT / 2, {
          duration: 300,
          zoom: flow.getZoom(),
        });
      });
    },
    [graph, nextTarget, commit, flow, catalog],
  );

  // Steps asked for before the registry arrived are placed one after another, each by the latest
  // `placeStep` (flushSync renders between them), so two quick clicks make two connected steps
  // rather than the second overwriting the first from the graph both saw when clicked.
  const latestPlaceStep = useRef(placeStep);
  useLayoutEffect(() => {
    latestPlaceStep.current = placeStep;
  }, [placeStep]);
  const waitingAdds = useRef<Promise<void>>(Promise.resolve());

  const addStep = useCallback(
    (definition: NodeInfo) => {
      if (readOnly) return;
      const defaults = (loaded: NodeLogic) =>
        (loaded.registry.get(definition.type)?.defaultParams() ?? {}) as Record<string, unknown>;
      if (logic) {
        placeStep(definition, defaults(logic));
        return;
      }
      waitingAdds.current = waitingAdds.current
        .then(() => loadLogic())
        .then((loaded) => flushSync(() => latestPlaceStep.current(definition, defaults(loaded))))
        .catch(() => setFlash("The step could not be added: the editor could not load. Reload the page."));
    },
    [readOnly, logic, loadLogic, placeStep],
  );

  const connect = useCallback(
    (source: string, sourceHandle: string, target: string) => {
      if (readOnly || source === target) return;
      if (
        graph.edges.some((e) => e.source === source && e.sourceHandle === sourceHandle && e.target === target)
      )
        return;
      const id = newEdgeId(
        source,
        sourceHandle,
        target,
        graph.edges.map((e) => e.id),
      );
      commit(
        { nodes: graph.nodes, edges: [...graph.edges, { id, source, sourceHandle, target }] },
        selectedIds,
      );
    },
    [readOnly, graph, commit, selectedIds],
  );

  const onConnect = useCallback(
    (connection: Connection) => {
      if (!connection.source || !connection.target) return;
      connect(connection.source, connection.sourceHandle ?? "out", connection.target);
    },
    [connect],
  );

  const onNodesChange = useCallback(
    (changes: NodeChange<StepNode>[]) => {
      const allowed = readOnly
        ? changes.filter((c) => c.type === "select" || c.type === "dimensions")
        : changes;
      setNodes((ns) => applyNodeChanges(allowed, ns));
    },
    [readOnly],
  );

  const onEdgesChange = useCallback(
    (changes: EdgeChange<StepEdge>[]) => {
      const allowed = readOnly ? changes.filter((c) => c.type === "select") : changes;
      setEdges((es) => applyEdgeChanges(allowed, es));
    },
    [readOnly],
  );

  // React Flow's own deletions and drags land in state first; record them once they are done.
  const recordCurrent = useCallback(() => {
    requestAnimationFrame(() => history.record(fromFlow(flow.getNodes(), flow.getEdges())));
  }, [flow, history]);

  const updateParams = useCallback((nodeId: string, params: Record<string, unknown>) => {
    setNodes((ns) => ns.map((n) => (n.id === nodeId ? { ...n, data: { ...n.data, params } } : n)));
  }, []);

  // Typing in a form records one undo step once typing pauses, not one per key.
  const graphKey = JSON.stringify(graph.nodes.map((n) => [n.id, n.type, n.params]));
  useEffect(() => {
    const timer = setTimeout(() => {
      const present = history.present();
      const presentKey = JSON.stringify(present.nodes.map((n) => [n.id, n.type, n.params]));
      if (presentKey !== graphKey) history.record(graph);
    }, 600);
    return () => clearTimeout(timer);
  }, [graphKey, graph, history]);

  const layout = useCallback(async () => {
    const { autoLayout } = await import("@/lib/automations/editor/layout");
    const laidOut = autoLayout(nodes, edges);
    commit(fromFlow(laidOut, edges), selectedIds);
    requestAnimationFrame(() => void flow.fitView({ padding: 0.2, duration: 300 }));
  }, [nodes, edges, commit, selectedIds, flow]);

  /** Shows an old version; one stored without positions is placed first (with dagre, loaded now). */
  const showVersion = useCallback(
    async (version: { version: number; graph: Graph } | null) => {
      setDryRun(null);
      if (version && !version.graph.nodes.every((n) => n.position)) {
        const { withPositions } = await import("@/lib/automations/editor/place");
        version = { version: version.version, graph: withPositions(version.graph) };
      }
      setViewing(version);
      requestAnimationFrame(() => void flow.fitView({ padding: 0.2, duration: 300 }));
    },
    [flow],
  );

  // The dry run stays mounted once opened (its result goes with the path on the canvas); the
  // publish dialog once opened (it animates closed). Neither loads before it is wanted.
  const [dryRunMounted, setDryRunMounted] = useState(false);
  if (panel === "dry-run" && !dryRunMounted) setDryRunMounted(true);
  const [publishMounted, setPublishMounted] = useState(false);
  if (publishOpen && !publishMounted) setPublishMounted(true);

  const copy = useCallback(() => {
    const ids = new Set(selectedIds);
    if (ids.size === 0) return;
    clipboard.current = {
      nodes: graph.nodes.filter((n) => ids.has(n.id)),
      edges: graph.edges.filter((e) => ids.has(e.source) && ids.has(e.target)),
    };
    setFlash(ids.size === 1 ? "Copied 1 step." : `Copied ${ids.size} steps.`);
  }, [selectedIds, graph]);

  const paste = useCallback(() => {
    const copied = clipboard.current;
    if (!copied || readOnly) return;
    const taken = graph.nodes.map((n) => n.id);
    const renamed = new Map<string, string>();
    for (const node of copied.nodes) {
      const id = newNodeId(node.type, [...taken, ...renamed.values()]);
      renamed.set(node.id, id);
    }
    const pastedNodes = copied.nodes.map((n) => ({
      ...n,
      id: renamed.get(n.id)!,
      position: { x: (n.position?.x ?? 0) + 40, y: (n.position?.y ?? 0) + 40 },
    }));
    const edgeIds = graph.edges.map((e) => e.id);
    const pastedEdges = copied.edges.map((e) => {
      const source = renamed.get(e.source)!;
      const target = renamed.get(e.target)!;
      const id = newEdgeId(source, e.sourceHandle, target, edgeIds);
      edgeIds.push(id);
      return { ...e, id, source, target };
    });
    commit({ nodes: [...graph.nodes, ...pastedNodes], edges: [...graph.edges, ...pastedEdges] }, [
      ...renamed.values(),
    ]);
    clipboard.current = { nodes: pastedNodes, edges: pastedEdges };
  }, [readOnly, graph, commit]);

  const deleteSelected = useCallback(() => {
    if (readOnly) return;
    const ids = new Set(selectedIds);
    const selectedEdges = new Set(edges.filter((e) => e.selected).map((e) => e.id));
    if (ids.size === 0 && selectedEdges.size === 0) return;
    commit(removeSteps(graph, ids, selectedEdges));
    setDryRun(null);
  }, [readOnly, selectedIds, edges, graph, commit]);

  // Editor shortcuts; React Flow handles arrow keys on the canvas itself. Delete/Backspace are ours,
  // so a step deleted from the middle of a line is bridged (removeSteps) however it is deleted.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (isTyping(event.target)) return;
      const mod = event.metaKey || event.ctrlKey;
      if ((event.key === "Delete" || event.key === "Backspace") && !mod && !readOnly) {
        event.preventDefault();
        deleteSelected();
        return;
      }
      if (!mod) return;
      const key = event.key.toLowerCase();
      if (key === "z" && !event.shiftKey && !readOnly) {
        event.preventDefault();
        restore(history.undo());
      } else if (((key === "z" && event.shiftKey) || key === "y") && !readOnly) {
        event.preventDefault();
        restore(history.redo());
      } else if (key === "c") {
        copy();
      } else if (key === "v" && !readOnly) {
        event.preventDefault();
        paste();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [history, restore, copy, paste, deleteSelected, readOnly]);

  useEffect(() => {
    if (!flash) return;
    const timer = setTimeout(() => setFlash(null), 2500);
    return () => clearTimeout(timer);
  }, [flash]);

  // Selecting a step opens its settings.
  const selectedId = selected?.id;
  const [shownSelection, setShownSelection] = useState(selectedId);
  if (selectedId !== shownSelection) {
    setShownSelection(selectedId);
    if (selectedId) setPanel("step");
  }

  const decorations = useMemo<CanvasDecorations>(() => {
    const issuesByNode = new Map<string, string[]>();
    for (const issue of issues) {
      if (!issue.nodeId) continue;
      issuesByNode.set(issue.nodeId, [...(issuesByNode.get(issue.nodeId) ?? []), issue.message]);
    }
    return {
      issuesByNode: viewing ? new Map() : issuesByNode,
      statusByNode: dryRun && !viewing ? dryRunStatuses(dryRun) : null,
      readOnly,
      onAddAfter: (nodeId, handle) => {
        setAddTarget({ nodeId, handle });
        searchRef.current?.focus();
      },
    };
  }, [issues, dryRun, viewing, readOnly]);

  const versionFlow = useMemo(() => (viewing ? toFlow(viewing.graph, catalog) : null), [viewing, catalog]);
  const pathEdges = useMemo(() => new Set(dryRun?.path.edgeIds ?? []), [dryRun]);
  const issueEdges = useMemo(() => new Set(issues.flatMap((i) => (i.edgeId ? [i.edgeId] : []))), [issues]);
  const shownNodes = versionFlow ? versionFlow.nodes : nodes;
  const shownEdges = (versionFlow ? versionFlow.edges : edges).map((edge) => {
    const onPath = !versionFlow && pathEdges.has(edge.id);
    const broken = !versionFlow && issueEdges.has(edge.id);
    return onPath || broken
      ? { ...edge, animated: onPath, style: { stroke: broken ? "#dc2626" : "#059669", strokeWidth: 2 } }
      : edge;
  });

  const targetNode = nextTarget && graph.nodes.find((n) => n.id === nextTarget.nodeId);
  const targetLabel =
    nextTarget && targetNode
      ? `after '${labelOf(nextTarget.nodeId)}'${(catalog.get(targetNode.type)?.handles.out.length ?? 0) > 1 ? ` (${nextTarget.handle})` : ""}`
      : null;

  const publishedSchedule = automation.activeGraph?.nodes.some((n) => n.type === SCHEDULE_TRIGGER) ?? false;
  // The published Later triggers' steps, for "Try it later…" (a draft's are not runnable yet).
  const publishedLaterSteps = useMemo(() => laterSteps(automation.activeGraph), [automation.activeGraph]);
  const stepsChanged = useMemo(
    () =>
      automation.version === 0 ||
      (logic ? !logic.diffGraphs(automation.activeGraph, graph).isEmpty : firstPaint.stepsChanged),
    [automation.version, automation.activeGraph, graph, logic, firstPaint.stepsChanged],
  );
  const unchanged = useMemo(
    () =>
      draftMatchesActive(
        activeMeta && automation.activeGraph ? { graph: automation.activeGraph, ...activeMeta } : null,
        { graph, name, inFlightPolicy: policy },
        (before, after) => (logic ? logic.diffGraphs(before, after).isEmpty : !firstPaint.stepsChanged),
      ),
    [activeMeta, automation.activeGraph, graph, name, policy, logic, firstPaint.stepsChanged],
  );
  // Until the active name and policy load, only the steps tell whether anything changed.
  const draftChanged = activeMeta ? !unchanged : stepsChanged;
  const publishBlocked = publishBlockedReason({
    issueCount: issues.length,
    nameMissing: name.trim() === "",
    unchanged,
    version: automation.version,
  });
  const canPublish = canEdit && !viewing && publishBlocked === null;

  const editControls = canEdit && (
    <>
      <Button
        size="sm"
        variant="ghost"
        className="px-2"
        disabled={readOnly || !history.canUndo}
        onClick={() => restore(history.undo())}
        aria-label="Undo"
        title="Undo (Ctrl+Z)"
        aria-keyshortcuts="Control+Z"
      >
        <HistoryArrow direction="back" />
      </Button>
      <Button
        size="sm"
        variant="ghost"
        className="px-2"
        disabled={readOnly || !history.canRedo}
        onClick={() => restore(history.redo())}
        aria-label="Redo"
        title="Redo (Ctrl+Shift+Z)"
        aria-keyshortcuts="Control+Shift+Z"
      >
        <HistoryArrow direction="forward" />
      </Button>
      {automation.status === "active" && publishedSchedule && (
        // Its wrapper is a block: as a flex column the button lines up with the others.
        <div className="[&>div]:flex [&>div]:flex-col [&>div]:items-end">
          <RunNowButton automationId={automation.id} name={automation.name} />
        </div>
      )}
      {automation.status === "active" && publishedLaterSteps.length > 0 && (
        <TryLaterButton automationId={automation.id} name={automation.name} steps={publishedLaterSteps} />
      )}
      {(automation.status === "active" || automation.status === "paused") && (
        <ActiveToggle
          id={automation.id}
          name={automation.name}
          status={automation.status}
          waitingRuns={waitingRuns}
        />
      )}
      <Button
        size="sm"
        variant="primary"
        disabled={!canPublish}
        title={publishBlocked ?? undefined}
        aria-describedby={publishBlocked ? publishReasonId : undefined}
        onClick={() => setPublishOpen(true)}
      >
        Publish
      </Button>
      {publishBlocked && (
        <span id={publishReasonId} className="sr-only">
          {publishBlocked}
        </span>
      )}
      {/* Less frequent actions, so the toolbar stays on one line (issue 13). */}
      <Menu label="More" menuLabel="More actions">
        <MenuItem disabled={readOnly || nodes.length === 0} onSelect={() => void layout()}>
          Tidy up
        </MenuItem>
        {canArchive && !archived && (
          <ArchiveButton id={automation.id} name={automation.name} beforeArchive={autosave.flush} menuItem />
        )}
      </Menu>
    </>
  );

  return (
    <div
      data-wide
      className="-mx-4 -my-6 flex flex-col sm:-mx-8 md:-my-8 md:h-[calc(100dvh-3.5rem)] md:min-h-[640px] lg:h-dvh"
    >
      {/* One line from xl up (the title gives way); below, the toolbar takes a row of its own. */}
      <header className="flex flex-wrap items-center gap-x-4 gap-y-2 border-b border-zinc-200 bg-white px-4 py-3 xl:flex-nowrap">
        <div className="flex min-w-0 flex-1 flex-wrap items-center gap-x-3 gap-y-1 xl:flex-nowrap">
          <Link
            href="/automations"
            className="shrink-0 text-sm whitespace-nowrap text-zinc-600 hover:text-zinc-900"
          >
            <span aria-hidden="true">←</span> Automations
          </Link>
          <h1
            className="max-w-full min-w-0 truncate text-lg font-semibold text-zinc-900"
            title={name.trim() || automation.name}
          >
            {name.trim() || automation.name}
          </h1>
          <span className="shrink-0">
            <AutomationStatusBadge status={automation.status} />
          </span>
          <span className="shrink-0 text-sm whitespace-nowrap text-zinc-500">
            {automation.version > 0 ? `Version ${automation.version}` : "Never published"}
          </span>
          <nav aria-label="Automation" className="flex shrink-0 items-center gap-3 text-sm whitespace-nowrap">
            <Link href={`/automations/${automation.id}/runs`} className="text-zinc-600 hover:text-zinc-900">
              Runs
            </Link>
            <Link
              href={`/automations/${automation.id}/waiting`}
              className="text-zinc-600 hover:text-zinc-900"
            >
              Waiting{waitingRuns > 0 ? ` (${waitingRuns})` : ""}
            </Link>
          </nav>
        </div>
        <div
          data-testid="editor-toolbar"
          className="flex flex-wrap items-center gap-2 md:flex-nowrap xl:shrink-0"
        >
          {canEdit && (
            <span className="hidden whitespace-nowrap md:inline">
              <SaveStatus state={autosave.state} />
            </span>
          )}
          {!canEdit && (
            <span className="rounded-md bg-zinc-100 px-2 py-1 text-xs font-medium text-zinc-700">
              {archived
                ? "Read-only: archived"
                : automation.builtinSlug
                  ? "Read-only: only admins change built-in automations"
                  : "Read-only: viewers can’t edit"}
            </span>
          )}
          {canEdit && !narrow && <div className="hidden items-center gap-2 md:flex">{editControls}</div>}
        </div>
      </header>

      {narrow && (
        <div className="space-y-3 border-b border-zinc-200 bg-white px-4 py-3 md:hidden">
          <Notice tone="info" title="The flow editor needs a larger screen">
            Open this page on a tablet or computer to edit; you can still view runs and publish state here.
          </Notice>
          <PublishState
            status={automation.status}
            version={automation.version}
            changed={draftChanged}
            canEdit={canEdit}
          />
        </div>
      )}

      {archived && (
        <div
          role="status"
          className="flex flex-wrap items-center justify-between gap-3 border-b border-zinc-200 bg-zinc-50 px-4 py-2 text-sm text-zinc-800"
        >
          <span>
            This automation is archived: it starts no runs, and its runs and history are kept. It is read-only
            {canArchive ? "; restore it to edit it again (it comes back paused)." : "."}
          </span>
          {canArchive && <RestoreButton id={automation.id} name={automation.name} />}
        </div>
      )}
      {notice && (
        <Notice tone="success" className="m-3">
          {notice}{" "}
          <button type="button" className="font-semibold underline" onClick={() => onNotice(null)}>
            Dismiss
          </button>
        </Notice>
      )}
      {autosave.state.kind === "conflict" && (
        <Notice tone="error" title="Someone else changed this draft" className="m-3">
          {autosave.state.message}{" "}
          <button type="button" className="font-semibold underline" onClick={() => window.location.reload()}>
            Reload
          </button>
        </Notice>
      )}
      {viewing && (
        <div
          role="status"
          className="flex items-center justify-between gap-3 border-b border-sky-200 bg-sky-50 px-4 py-2 text-sm text-sky-900"
        >
          <span>Viewing version {viewing.version} — read-only.</span>
          <button type="button" className="font-semibold underline" onClick={() => setViewing(null)}>
            Back to the draft
          </button>
        </div>
      )}

      {/* Below md only the canvas shows (read-only); the palette and the panel need the room. */}
      <div className="grid min-h-0 flex-1 grid-cols-1 md:grid-cols-[12rem_minmax(0,1fr)_19rem] xl:grid-cols-[15rem_minmax(0,1fr)_24rem]">
        <div className="hidden min-h-0 md:grid md:grid-cols-[minmax(0,1fr)] md:grid-rows-[minmax(0,1fr)]">
          <Palette
            nodes={firstPaint.nodes}
            disabled={readOnly}
            builtin={Boolean(automation.builtinSlug)}
            target={targetLabel}
            onClearTarget={() => setAddTarget(null)}
            onAdd={addStep}
            searchRef={searchRef}
          />
        </div>
        <div
          className="relative h-[65dvh] min-h-80 md:h-auto md:min-h-0"
          aria-label="Flow canvas"
          role="region"
        >
          <StepTextsContext value={stepTexts}>
            <DecorationsContext value={decorations}>
              <ReactFlow<StepNode, StepEdge>
                nodes={shownNodes}
                edges={shownEdges}
                nodeTypes={STEP_NODE_TYPES}
                onNodesChange={onNodesChange}
                onEdgesChange={onEdgesChange}
                onConnect={onConnect}
                onNodeDragStop={recordCurrent}
                nodesDraggable={!readOnly}
                nodesConnectable={!readOnly}
                edgesReconnectable={false}
                deleteKeyCode={null}
                snapToGrid
                snapGrid={[20, 20]}
                fitView
                fitViewOptions={{ padding: 0.2, maxZoom: 1 }}
                defaultEdgeOptions={{ type: "smoothstep" }}
                minZoom={0.2}
                maxZoom={1.5}
              >
                <Background gap={20} size={1} />
                <Controls showInteractive={false} />
                {!narrow && <MiniMap pannable zoomable ariaLabel="Mini map of the flow" />}
              </ReactFlow>
            </DecorationsContext>
          </StepTextsContext>
          {nodes.length === 0 && !viewing && !narrow && (
            <div className="pointer-events-none absolute inset-0 flex items-center justify-center p-8">
              <div className="max-w-sm rounded-xl border border-dashed border-zinc-300 bg-white/90 p-6 text-center text-sm text-zinc-600">
                <p className="font-semibold text-zinc-900">Start with a trigger</p>
                <p className="mt-1">
                  Pick what starts this flow from the list on the left — an order being paid, a cart being
                  abandoned, a schedule. Then add waits, conditions and actions after it.
                </p>
              </div>
            </div>
          )}
          {flash && (
            <p
              role="status"
              className="absolute top-3 left-1/2 -translate-x-1/2 rounded-md bg-zinc-900 px-3 py-1.5 text-sm text-white shadow"
            >
              {flash}
            </p>
          )}
        </div>

        <aside
          aria-label="Details"
          className="hidden min-h-0 flex-col border-l border-zinc-200 bg-white md:flex"
        >
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
                onClick={() => setPanel(tab.id)}
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
                  changed={draftChanged}
                  canEdit={canEdit}
                />
              ) : (
                <ReadyIssuesPanel issues={issues} labelOf={labelOf} onFocusNode={focusNode} />
              ))}
            {panel === "step" &&
              (selected ? (
                <div className="space-y-5">
                  {logic ? (
                    <NodeConfig
                      key={selected.id}
                      node={{ id: selected.id, type: selected.type, params: selected.params }}
                      triggerDomain={triggerDomain}
                      triggerType={trigger?.type ?? null}
                      otherSteps={earlierSteps}
                      previewSource={{
                        timeZone: shopTimezone,
                        record:
                          dryRun?.entity && dryRun.tokenRecord
                            ? { ...dryRun.entity, data: dryRun.tokenRecord }
                            : null,
                      }}
                      credentials={credentials}
                      readOnly={readOnly}
                      onParamsChange={(params) => updateParams(selected.id, params)}
                    />
                  ) : (
                    <Loading />
                  )}
                  {logic && selected.type === SCHEDULE_TRIGGER && (
                    <SchedulePreview
                      cron={typeof selected.params.cron === "string" ? selected.params.cron : ""}
                      timezone={typeof selected.params.timezone === "string" ? selected.params.timezone : ""}
                      audience={scheduleAudience(logic, selected.params.audience)}
                      shopTimeZone={shopTimezone}
                      automationId={automation.id}
                    />
                  )}
                  <ConnectionsEditor
                    nodeId={selected.id}
                    graph={graph}
                    readOnly={readOnly}
                    onConnect={(handle, target) => connect(selected.id, handle, target)}
                    onDisconnect={(edgeId) =>
                      commit({ nodes: graph.nodes, edges: graph.edges.filter((e) => e.id !== edgeId) }, [
                        selected.id,
                      ])
                    }
                  />
                  {!readOnly && (
                    <Button size="sm" variant="danger-outline" onClick={deleteSelected}>
                      Delete step
                    </Button>
                  )}
                </div>
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
                  onResult={setDryRun}
                />
              </div>
            )}
            {panel === "versions" && (
              <VersionsPanel
                automationId={automation.id}
                currentVersion={automation.version}
                canEdit={canEdit}
                viewing={viewing?.version ?? null}
                onView={(version) => void showVersion(version)}
                onReverted={({ version }) => {
                  onNotice(`Version ${version} is live, with the steps of the version you reverted to.`);
                  router.refresh();
                }}
              />
            )}
            {panel === "settings" && (
              <div className="space-y-6">
                <SettingsPanel
                  name={name}
                  policy={policy}
                  readOnly={readOnly}
                  onNameChange={setName}
                  onPolicyChange={setPolicy}
                />
                {automation.builtinSlug && (
                  <section className="space-y-2 border-t border-zinc-200 pt-4 text-sm text-zinc-600">
                    <h3 className="font-semibold text-zinc-900">Built-in automation</h3>
                    <p>
                      One of the platform&apos;s own jobs. You can change its schedule and steps or pause it;
                      it cannot be archived.
                    </p>
                    {isAdmin && (
                      <ResetBuiltinButton
                        automationId={automation.id}
                        name={automation.name}
                        onReset={(version) =>
                          onNotice(`Reset to the built-in definition, published as version ${version}.`)
                        }
                      />
                    )}
                  </section>
                )}
              </div>
            )}
          </div>
        </aside>
      </div>

      {canEdit && publishMounted && (
        <PublishDialog
          automation={{
            id: automation.id,
            name: automation.name,
            version: automation.version,
            status: automation.status,
            inFlightPolicy: policy,
            activeGraph: automation.activeGraph,
          }}
          draftGraph={graph}
          draftName={name}
          unchanged={unchanged}
          open={publishOpen}
          onClose={() => setPublishOpen(false)}
          onPolicyChange={setPolicy}
          beforePublish={autosave.flush}
          onPublished={({ version, published, message }) => {
            setPublishOpen(false);
            onNotice(
              published
                ? `Version ${version} is live. ${message}`
                : `Nothing changed since version ${version}; it is active. ${message}`,
            );
            router.refresh();
          }}
        />
      )}
    </div>
  );
}
