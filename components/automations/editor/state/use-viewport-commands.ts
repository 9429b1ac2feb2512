"use client";

import { useReactFlow } from "@xyflow/react";
import { useCallback, useMemo, useRef } from "react";
import { flushSync } from "react-dom";
import { exitTarget } from "@/lib/automations/editor/add-target";
import type { StepEdge, StepNode } from "@/lib/automations/editor/flow";
import { FIT_VIEW_PADDING, NODE_HEIGHT, NODE_WIDTH } from "@/lib/automations/editor/node-size";
import type { NodeInfo } from "@/lib/automations/nodes/catalog";
import { withShopTimeZone } from "../step-form/shop-zone";
import { useEditorApi } from "./editor-context";
import type { NodeLogic } from "./node-logic-loader";
import { selectReadOnly, type ViewedVersion } from "./store";

/**
 * The store's commands that move React Flow's viewport as well: a new step is centred, a focused
 * step brought into view, a tidied flow or an old version fitted. The graph changes are the
 * store's (`store.ts`); only the camera work is here.
 */
export function useViewportCommands(loadLogic: () => Promise<NodeLogic>, shopTimeZone: string) {
  const api = useEditorApi();
  const flow = useReactFlow<StepNode, StepEdge>();
  const searchRef = useRef<HTMLInputElement>(null);
  // Steps asked for before the registry arrived are placed one after another, each on the graph
  // the one before left (flushSync renders between them), so two quick clicks make two
  // connected steps rather than the second overwriting the first.
  const waitingAdds = useRef<Promise<void>>(Promise.resolve());

  const addStep = useCallback(
    (definition: NodeInfo, focusField = false) => {
      const state = api.getState();
      if (selectReadOnly(state)) return;
      const defaults = (loaded: NodeLogic) => {
        const full = loaded.registry.get(definition.type);
        return full
          ? withShopTimeZone(full, full.defaultParams() as Record<string, unknown>, shopTimeZone)
          : {};
      };
      const place = (params: Record<string, unknown>) => {
        const placed = api.getState().placeStep(definition, params);
        if (!placed) return;
        if (focusField) void import("./focus-step-field").then((m) => m.focusStepField(placed.id));
        const { position } = placed;
        requestAnimationFrame(() => {
          void flow.setCenter(position.x + NODE_WIDTH / 2, position.y + NODE_HEIGHT / 2, {
            duration: 300,
            zoom: flow.getZoom(),
          });
        });
      };
      if (state.logic) {
        place(defaults(state.logic));
        return;
      }
      waitingAdds.current = waitingAdds.current
        .then(() => loadLogic())
        .then((loaded) => flushSync(() => place(defaults(loaded))))
        .catch(() =>
          api.getState().setFlash("The step could not be added: the editor could not load. Reload the page."),
        );
    },
    [api, flow, loadLogic, shopTimeZone],
  );

  const focusNode = useCallback(
    (id: string) => {
      api.getState().selectOnly(id);
      const node = flow.getNode(id);
      if (node)
        void flow.setCenter(node.position.x + NODE_WIDTH / 2, node.position.y + NODE_HEIGHT / 2, {
          zoom: Math.max(flow.getZoom(), 0.9),
          duration: 300,
        });
      api.getState().setPanel("step");
    },
    [api, flow],
  );

  /** Lays the flow out afresh with dagre, loaded now. */
  const tidyUp = useCallback(async () => {
    const { autoLayout } = await import("@/lib/automations/editor/layout");
    api.getState().tidy(autoLayout);
    requestAnimationFrame(() => void flow.fitView({ padding: FIT_VIEW_PADDING, maxZoom: 1, duration: 300 }));
  }, [api, flow]);

  /** An old version on the canvas (placed first with dagre when stored without positions), or the draft again. */
  const showVersion = useCallback(
    async (version: ViewedVersion | null) => {
      api.getState().setDryRun(null);
      if (version && !version.graph.nodes.every((n) => n.position)) {
        const { withPositions } = await import("@/lib/automations/editor/place");
        version = { version: version.version, graph: withPositions(version.graph) };
      }
      api.getState().setViewing(version);
      requestAnimationFrame(() => void flow.fitView({ padding: 0.2, duration: 300 }));
    },
    [api, flow],
  );

  // "+" on a line inserts the next step on it; the palette offers a parallel branch instead.
  const onAddAfter = useCallback(
    (nodeId: string, handle: string) => {
      api.getState().setAddTarget(exitTarget(nodeId, handle, api.getState().graph));
      searchRef.current?.focus();
    },
    [api],
  );

  return useMemo(
    () => ({
      addStep,
      focusNode,
      tidyUp: () => void tidyUp(),
      showVersion: (version: ViewedVersion | null) => void showVersion(version),
      onAddAfter,
      searchRef,
    }),
    [addStep, focusNode, tidyUp, showVersion, onAddAfter],
  );
}
