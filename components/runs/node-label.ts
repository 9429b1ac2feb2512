import { registry } from "@/lib/automations/nodes/registry";

/** The node type's label ("Add tag"), or the raw type for one this version of the app does not know. */
export function nodeLabel(nodeType: string): string {
  return registry.get(nodeType)?.label ?? nodeType;
}
