import { applyEdgeChanges, applyNodeChanges, type EdgeChange, type NodeChange } from "@xyflow/react";
import { createStore } from "zustand/vanilla";
import { nextAddTarget, type AddTarget } from "@/lib/automations/editor/add-target";
import {
  addStep as addStepTo,
  connect as connectSteps,
  copySteps,
  deleteSelection,
  disconnect as disconnectSteps,
  pasteSteps,
  tidy,
} from "@/lib/automations/editor/commands";
import {
  fromFlow,
  toFlow,
  type PlaceSteps,
  type StepEdge,
  type StepNode,
} from "@/lib/automations/editor/flow";
import { recordEdit, redoEdit, startHistory, undoEdit, type History } from "@/lib/automations/editor/history";
import type { DryRunResult } from "@/lib/automations/dry-run/result";
import type { Graph, GraphNode } from "@/lib/automations/graph/schema";
import type { InFlightPolicy } from "@/lib/automations/lifecycle/policies";
import type { NodeInfo, NodeLookup } from "@/lib/automations/nodes/catalog";
import type { NodeLogic } from "./node-logic-loader";

/** The side panel's tabs. */
export type Panel = "step" | "issues" | "settings" | "versions" | "dry-run" | "backtest";

/** An old published version shown read-only on the canvas instead of the draft. */
export interface ViewedVersion {
  version: number;
  graph: Graph;
}

/** What the editor starts from: the draft as it was when this version opened, and who may edit. */
export interface EditorInit {
  draft: Graph;
  catalog: NodeLookup;
  name: string;
  policy: InFlightPolicy;
  canEdit: boolean;
  /** The registry's half, when an earlier editor on this page already loaded it. */
  logic?: NodeLogic | null;
}

export interface EditorState {
  /** React Flow's nodes and edges: the canvas as drawn, with its selection and measurements. */
  nodes: StepNode[];
  edges: StepEdge[];
  /** The graph they make (`fromFlow`), worked out once per change of either. */
  graph: Graph;
  /** Undo/redo snapshots of the graph, one per finished edit. */
  history: History<Graph>;
  catalog: NodeLookup;
  /** The side panel's open tab, and the selection it last saw (see `withSelection`). */
  panel: Panel;
  shownSelection: string | undefined;
  /** The exit whose "+" was clicked (or "Add a parallel branch instead"); null: the selected step's. */
  addTarget: AddTarget | null;
  /** The last dry run, whose path the canvas lights up; null when none or stale. */
  dryRun: DryRunResult | null;
  /** The draft's name and in-flight policy, as typed. */
  name: string;
  policy: InFlightPolicy;
  /** Who may edit (the page's say), whether the screen is too narrow, and an old version viewed. */
  canEdit: boolean;
  narrow: boolean;
  viewing: ViewedVersion | null;
  /** The registry's half of the editor; null until the first sign of use brings it. */
  logic: NodeLogic | null;
  /** A short message on the canvas ("Copied 2 steps."), or null. */
  flash: string | null;
  /** What Copy kept; Paste adds it again. */
  clipboard: Graph | null;
  publishOpen: boolean;
  searchOpen: boolean;
}

export interface EditorActions {
  setNodes(next: StepNode[] | ((nodes: StepNode[]) => StepNode[])): void;
  onNodesChange(changes: NodeChange<StepNode>[]): void;
  onEdgesChange(changes: EdgeChange<StepEdge>[]): void;
  /** Replaces the canvas with `next`, selecting `selectIds`, and remembers it for undo. */
  commit(next: Graph, selectIds?: readonly string[]): void;
  /** Remembers the canvas's graph as it is now (a drag ended, typing paused). */
  record(graph: Graph): void;
  undo(): void;
  redo(): void;
  updateParams(nodeId: string, params: Record<string, unknown>): void;
  /** Selects only this step. */
  selectOnly(nodeId: string): void;
  connect(source: string, sourceHandle: string, target: string): void;
  /** Removes a connection from the step panel's Next steps, keeping `stepId` selected. */
  disconnect(edgeId: string, stepId: string): void;
  deleteSelected(): void;
  copy(): void;
  paste(): void;
  tidy(layout: PlaceSteps): void;
  /**
   * A new step of `definition`'s type where the add target says, selected; the target is spent,
   * the Step tab opens, a dry run's path is stale. Null on a read-only canvas.
   */
  placeStep(
    definition: NodeInfo,
    params: Record<string, unknown>,
  ): { id: string; position: { x: number; y: number } } | null;
  setPanel(panel: Panel): void;
  setAddTarget(target: AddTarget | null): void;
  setDryRun(result: DryRunResult | null): void;
  setName(name: string): void;
  setPolicy(policy: InFlightPolicy): void;
  setViewing(version: ViewedVersion | null): void;
  setLogic(logic: NodeLogic): void;
  setFlash(text: string | null): void;
  setPublishOpen(open: boolean): void;
  setSearchOpen(open: boolean): void;
  /** The page's say on editing and the screen's width, as they change. */
  setAccess(access: { canEdit: boolean; narrow: boolean }): void;
}

export type EditorStore = EditorState & EditorActions;

/** Viewers, old versions and phones get the canvas to look at, not to edit. */
export function selectReadOnly(state: EditorState): boolean {
  return !state.canEdit || state.viewing !== null || state.narrow;
}

/** The one selected step's id; undefined when none is selected, or several are. */
export function selectedStepId(nodes: readonly StepNode[]): string | undefined {
  let found: string | undefined;
  for (const node of nodes) {
    if (!node.selected) continue;
    if (found !== undefined) return undefined;
    found = node.id;
  }
  return found;
}

/** The one selected step as a graph node (the Step tab's), else undefined. */
export function selectSelected(state: EditorState): GraphNode | undefined {
  const id = selectedStepId(state.nodes);
  return id === undefined ? undefined : state.graph.nodes.find((n) => n.id === id);
}

/** Where the next palette pick goes: the chosen exit, else the selected step's first free exit. */
export function selectNextTarget(state: EditorState): AddTarget | null {
  return nextAddTarget(state.addTarget, selectSelected(state), state.graph, state.catalog);
}

const selectedIdsOf = (nodes: readonly { id: string; selected?: boolean }[]) =>
  nodes.filter((n) => n.selected).map((n) => n.id);

/**
 * The canvas's nodes and edges with what follows from them: the graph they make, and the panel's
 * tab — Issues at first; a newly selected step opens its settings (Step), a deselection leaves the
 * tab be (the rule `usePanelTab` kept in render before: a change of the one selected step's id).
 */
function withSelection(
  state: EditorState,
  nodes: StepNode[],
  edges: StepEdge[],
): Pick<EditorState, "nodes" | "edges" | "graph" | "panel" | "shownSelection"> {
  const graph = nodes === state.nodes && edges === state.edges ? state.graph : fromFlow(nodes, edges);
  const id = selectedStepId(nodes);
  const selected = id === undefined ? undefined : graph.nodes.some((n) => n.id === id) ? id : undefined;
  if (selected === state.shownSelection)
    return { nodes, edges, graph, panel: state.panel, shownSelection: selected };
  return { nodes, edges, graph, panel: selected ? "step" : state.panel, shownSelection: selected };
}

/**
 * One store per mounted editor (made by `EditorProvider`, never shared between two editors or
 * two tests): the graph, selection, history, read-only, the draft's name and policy, the dry
 * run, the panel's tab and the add target. Its actions call the pure helpers in
 * `lib/automations/editor/`; what needs React Flow's viewport (centring, fitting) stays in hooks.
 */
export function createEditorStore(init: EditorInit) {
  const initial = toFlow(init.draft, init.catalog);
  return createStore<EditorStore>()((set, get) => {
    const place = (nodes: StepNode[], edges: StepEdge[]) => set(withSelection(get(), nodes, edges));
    const readOnly = () => selectReadOnly(get());
    const commit = (next: Graph, selectIds: readonly string[] = []) => {
      const flowState = toFlow(next, get().catalog);
      place(
        flowState.nodes.map((n) => ({ ...n, selected: selectIds.includes(n.id) })),
        flowState.edges,
      );
      set({ history: recordEdit(get().history, next) });
    };
    const restore = (history: History<Graph> | null) => {
      if (!history) return;
      set({ history });
      const flowState = toFlow(history.present, get().catalog);
      place(flowState.nodes, flowState.edges);
    };
    const graph = fromFlow(initial.nodes, initial.edges);

    return {
      nodes: initial.nodes,
      edges: initial.edges,
      graph,
      history: startHistory(graph),
      catalog: init.catalog,
      panel: "issues",
      shownSelection: undefined,
      addTarget: null,
      dryRun: null,
      name: init.name,
      policy: init.policy,
      canEdit: init.canEdit,
      narrow: false,
      viewing: null,
      logic: init.logic ?? null,
      flash: null,
      clipboard: null,
      publishOpen: false,
      searchOpen: false,

      setNodes: (next) => place(typeof next === "function" ? next(get().nodes) : next, get().edges),
      onNodesChange: (changes) => {
        const allowed = readOnly()
          ? changes.filter((c) => c.type === "select" || c.type === "dimensions")
          : changes;
        place(applyNodeChanges(allowed, get().nodes), get().edges);
      },
      onEdgesChange: (changes) => {
        const allowed = readOnly() ? changes.filter((c) => c.type === "select") : changes;
        place(get().nodes, applyEdgeChanges(allowed, get().edges));
      },
      commit,
      record: (next) => set({ history: recordEdit(get().history, next) }),
      undo: () => restore(undoEdit(get().history)),
      redo: () => restore(redoEdit(get().history)),
      updateParams: (nodeId, params) =>
        place(
          get().nodes.map((n) => (n.id === nodeId ? { ...n, data: { ...n.data, params } } : n)),
          get().edges,
        ),
      selectOnly: (nodeId) =>
        place(
          get().nodes.map((n) => ({ ...n, selected: n.id === nodeId })),
          get().edges,
        ),
      connect: (source, sourceHandle, target) => {
        if (readOnly()) return;
        const next = connectSteps(get().graph, source, sourceHandle, target);
        if (next) commit(next, selectedIdsOf(get().nodes));
      },
      disconnect: (edgeId, stepId) => commit(disconnectSteps(get().graph, edgeId), [stepId]),
      deleteSelected: () => {
        if (readOnly()) return;
        const { graph, nodes, edges } = get();
        const next = deleteSelection(graph, selectedIdsOf(nodes), selectedIdsOf(edges));
        if (!next) return;
        commit(next);
        // A dry run's path no longer fits the flow.
        set({ dryRun: null });
      },
      copy: () => {
        const copied = copySteps(get().graph, selectedIdsOf(get().nodes));
        if (!copied) return;
        const count = copied.nodes.length;
        set({ clipboard: copied, flash: count === 1 ? "Copied 1 step." : `Copied ${count} steps.` });
      },
      paste: () => {
        const copied = get().clipboard;
        if (!copied || readOnly()) return;
        const { graph: next, pasted, ids } = pasteSteps(get().graph, copied);
        commit(next, ids);
        set({ clipboard: pasted });
      },
      tidy: (layout) => {
        const { nodes, edges } = get();
        commit(tidy(nodes, edges, layout), selectedIdsOf(nodes));
      },
      placeStep: (definition, params) => {
        if (readOnly()) return null;
        const state = get();
        const placed = addStepTo(state.graph, definition, params, selectNextTarget(state), state.catalog);
        commit(placed.graph, [placed.id]);
        set({ addTarget: null, panel: "step", dryRun: null });
        return { id: placed.id, position: placed.position };
      },
      setPanel: (panel) => set({ panel }),
      setAddTarget: (addTarget) => set({ addTarget }),
      setDryRun: (dryRun) => set({ dryRun }),
      setName: (name) => set({ name }),
      setPolicy: (policy) => set({ policy }),
      setViewing: (viewing) => set({ viewing }),
      setLogic: (logic) => set({ logic }),
      setFlash: (flash) => set({ flash }),
      setPublishOpen: (publishOpen) => set({ publishOpen }),
      setSearchOpen: (searchOpen) => set({ searchOpen }),
      setAccess: ({ canEdit, narrow }) => {
        if (canEdit !== get().canEdit || narrow !== get().narrow) set({ canEdit, narrow });
      },
    };
  });
}

export type EditorStoreApi = ReturnType<typeof createEditorStore>;
