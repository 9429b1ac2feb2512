"use client";

import { asBranch } from "@/lib/automations/editor/add-target";
import { Palette } from "./palette";
import { useEditor, useEditorApi, useEditorView } from "../state/editor-context";
import { selectReadOnly } from "../state/store";
import { useAddTarget } from "../state/use-add-target";

/** The palette's column: hidden below md, where only the canvas shows (read-only). */
export function PaletteColumn() {
  const view = useEditorView();
  const api = useEditorApi();
  const readOnly = useEditor(selectReadOnly);
  const { target, label } = useAddTarget();
  return (
    <div className="hidden min-h-0 md:grid md:grid-cols-[minmax(0,1fr)] md:grid-rows-[minmax(0,1fr)]">
      <Palette
        nodes={view.firstPaint.nodes}
        disabled={readOnly}
        builtin={Boolean(view.automation.builtinSlug)}
        target={label}
        onClearTarget={() => api.getState().setAddTarget(null)}
        onBranchInstead={
          target?.edgeId
            ? () => {
                api.getState().setAddTarget(asBranch(target));
                view.searchRef.current?.focus();
              }
            : null
        }
        onAdd={(definition) => view.addStep(definition)}
        searchRef={view.searchRef}
      />
    </div>
  );
}
