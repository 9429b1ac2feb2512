"use client";

import { shallow } from "zustand/shallow";
import { addTargetLabel, type AddTarget } from "@/lib/automations/editor/add-target";
import { useEditor, useEditorView } from "./editor-context";
import { selectNextTarget } from "./store";

/**
 * Where the next pick from the palette or the add-step search goes (`nextAddTarget`), and what the
 * palette says of it ("after 'Wait 2 days'", "between 'Order paid' and 'Add tag'").
 */
export function useAddTarget(): { target: AddTarget | null; label: string | null } {
  const { catalog, labelOf } = useEditorView();
  const target = useEditor(
    selectNextTarget,
    (a, b) => a === b || (a !== null && b !== null && shallow(a, b)),
  );
  const graph = useEditor((s) => s.graph);
  return { target, label: addTargetLabel(target, graph, catalog, labelOf) };
}
