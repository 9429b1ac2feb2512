"use client";

import { useReactFlow } from "@xyflow/react";
import { useCallback, useLayoutEffect, useRef } from "react";
import { flushSync } from "react-dom";
import type { AddTarget } from "@/lib/automations/editor/add-target";
import { addStep as addStepTo } from "@/lib/automations/editor/commands";
import type { StepEdge, StepNode } from "@/lib/automations/editor/flow";
import { NODE_HEIGHT, NODE_WIDTH } from "@/lib/automations/editor/node-size";
import type { Graph } from "@/lib/automations/graph/schema";
import type { NodeInfo, NodeLookup } from "@/lib/automations/nodes/catalog";
import { withShopTimeZone } from "./config/shop-zone";
import type { NodeLogic } from "./use-node-logic";

interface AddStepOptions {
  graph: Graph;
  /** Where the new step goes and what it connects from (`nextAddTarget`). */
  target: AddTarget | null;
  catalog: NodeLookup;
  readOnly: boolean;
  logic: NodeLogic | null;
  loadLogic(): Promise<NodeLogic>;
  commit(next: Graph, selectIds?: readonly string[]): void;
  /** A step was placed (its id): the add target is spent, its settings open, a dry run's path is stale. */
  onAdded(id: string): void;
  onFlash(text: string): void;
  /** The shop's time zone: a new schedule or Wait until starts on it, not the browser's. */
  shopTimeZone?: string;
}

/**
 * The palette's pick as a new step on the canvas, with its type's default params (from the
 * registry, loaded now if need be; a zone the shop's), selected and centred in view.
 */
export function useAddStep({
  graph,
  target,
  catalog,
  readOnly,
  logic,
  loadLogic,
  commit,
  onAdded,
  onFlash,
  shopTimeZone,
}: AddStepOptions): (definition: NodeInfo) => void {
  const flow = useReactFlow<StepNode, StepEdge>();

  const placeStep = useCallback(
    (definition: NodeInfo, params: Record<string, unknown>) => {
      const { graph: next, id, position } = addStepTo(graph, definition, params, target, catalog);
      commit(next, [id]);
      onAdded(id);
      requestAnimationFrame(() => {
        void flow.setCenter(position.x + NODE_WIDTH / 2, position.y + NODE_HEIGHT / 2, {
          duration: 300,
          zoom: flow.getZoom(),
        });
      });
    },
    [graph, target, commit, flow, catalog, onAdded],
  );

  // Steps asked for before the registry arrived are placed one after another, each by the latest
  // `placeStep` (flushSync renders between them), so two quick clicks make two connected steps
  // rather than the second overwriting the first from the graph both saw when clicked.
  const latestPlaceStep = useRef(placeStep);
  useLayoutEffect(() => {
    latestPlaceStep.current = placeStep;
  }, [placeStep]);
  const waitingAdds = useRef<Promise<void>>(Promise.resolve());

  return useCallback(
    (definition: NodeInfo) => {
      if (readOnly) return;
      const defaults = (loaded: NodeLogic) =>
        withShopTimeZone(
          definition.type,
          (loaded.registry.get(definition.type)?.defaultParams() ?? {}) as Record<string, unknown>,
          shopTimeZone,
        );
      if (logic) {
        placeStep(definition, defaults(logic));
        return;
      }
      waitingAdds.current = waitingAdds.current
        .then(() => loadLogic())
        .then((loaded) => flushSync(() => latestPlaceStep.current(definition, defaults(loaded))))
        .catch(() => onFlash("The step could not be added: the editor could not load. Reload the page."));
    },
    [readOnly, logic, loadLogic, placeStep, onFlash, shopTimeZone],
  );
}
