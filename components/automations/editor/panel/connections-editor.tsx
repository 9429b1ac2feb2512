"use client";

import { useId } from "react";
import { Select } from "@/components/ui/form";
import type { Graph } from "@/lib/automations/graph/schema";
import { exitLabel, outHandles } from "@/lib/automations/nodes/catalog";
import { flowDomain, registry, summariseNode } from "@/lib/automations/nodes/registry";
import { inSentence } from "@/lib/domains/labels";

export interface ConnectionsEditorProps {
  nodeId: string;
  graph: Graph;
  readOnly: boolean;
  onConnect(handle: string, target: string): void;
  onDisconnect(edgeId: string): void;
}

/**
 * The selected step's exits as a form: what each exit leads to, with Remove, and a select to add a
 * connection. The keyboard way to connect steps (dragging a handle needs a mouse).
 */
export function ConnectionsEditor({
  nodeId,
  graph,
  readOnly,
  onConnect,
  onDisconnect,
}: ConnectionsEditorProps) {
  const baseId = useId();
  const node = graph.nodes.find((n) => n.id === nodeId);
  const definition = node ? registry.get(node.type) : undefined;
  const exits = node && definition ? outHandles(definition, node.params) : [];
  if (!node || !definition || exits.length === 0) return null;
  const handleLabel = (handle: string) => exitLabel(definition, node.params, handle);
  const label = (id: string) => {
    const target = graph.nodes.find((n) => n.id === id);
    return target ? summariseNode(target, { domain: flowDomain(graph) }) : id;
  };
  const candidates = graph.nodes.filter(
    (n) =>
      n.id !== nodeId && registry.get(n.type)?.category !== "trigger" && registry.get(n.type)?.handles.in,
  );

  return (
    <section aria-labelledby={`${baseId}-title`} className="border-t border-zinc-200 pt-4">
      <h3 id={`${baseId}-title`} className="text-sm font-semibold text-zinc-900">
        Next steps
      </h3>
      {exits.map((handle) => {
        const edges = graph.edges.filter((e) => e.source === nodeId && e.sourceHandle === handle);
        const free = candidates.filter((c) => !edges.some((e) => e.target === c.id));
        const selectId = `${baseId}-${handle}`;
        const exitName = exits.length > 1 ? `When ${inSentence(handleLabel(handle))}` : "Then";
        return (
          <div key={handle} className="mt-3">
            <p className="text-xs font-medium text-zinc-600">{exitName}</p>
            <ul className="mt-1 space-y-1">
              {edges.length === 0 && (
                <li className="text-xs text-zinc-500">Nothing yet — the flow ends here.</li>
              )}
              {edges.map((edge) => (
                <li key={edge.id} className="flex items-center justify-between gap-2 text-sm text-zinc-800">
                  <span className="truncate">→ {label(edge.target)}</span>
                  {!readOnly && (
                    <button
                      type="button"
                      className="shrink-0 rounded px-1 text-xs font-medium text-red-700 hover:underline"
                      aria-label={`Remove the connection to '${label(edge.target)}'`}
                      onClick={() => onDisconnect(edge.id)}
                    >
                      Remove
                    </button>
                  )}
                </li>
              ))}
            </ul>
            {!readOnly && free.length > 0 && (
              <>
                <label htmlFor={selectId} className="sr-only">
                  {exits.length > 1 ? `Connect ${inSentence(handleLabel(handle))} to` : "Connect to"}
                </label>
                <Select
                  id={selectId}
                  controlSize="sm"
                  className="mt-1"
                  value=""
                  onChange={(e) => {
                    if (e.target.value) onConnect(handle, e.target.value);
                  }}
                >
                  <option value="">Connect to…</option>
                  {free.map((c) => (
                    <option key={c.id} value={c.id}>
                      {summariseNode(c, { domain: flowDomain(graph) })}
                    </option>
                  ))}
                </Select>
              </>
            )}
          </div>
        );
      })}
    </section>
  );
}
