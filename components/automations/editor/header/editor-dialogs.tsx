"use client";

import { useCallback, useState } from "react";
import { useFirstUse } from "@/components/ui/hooks/use-first-use";
import { useOnceTrue } from "@/components/ui/hooks/use-once-true";
import type { StepSearchDialog as SearchDialog } from "../canvas/step-search-dialog";
import { EditorPublishDialog } from "../panel/lazy-parts";
import { useEditor, useEditorApi, useEditorView } from "../state/editor-context";
import { selectReadOnly } from "../state/store";
import { useAddTarget } from "../state/use-add-target";

/** The add-step search (`/`, Ctrl/⌘+K) and the publish dialog, as the editor opens them. */
export function EditorDialogs() {
  const view = useEditorView();
  const { automation, canEdit } = view;
  const api = useEditorApi();
  const { setSearchOpen, setPublishOpen, setPolicy, setName } = api.getState();
  const readOnly = useEditor(selectReadOnly);
  const searchOpen = useEditor((s) => s.searchOpen);
  const publishOpen = useEditor((s) => s.publishOpen);
  const graph = useEditor((s) => s.graph);
  const name = useEditor((s) => s.name);
  const policy = useEditor((s) => s.policy);
  const { label } = useAddTarget();
  // The add-step search loads with the first sign of use, as the registry does, so it is there
  // (mounted, closed) before `/` is pressed, and stays out of the first load.
  const [StepSearch, setStepSearch] = useState<typeof SearchDialog | null>(null);
  const loadStepSearch = useCallback(
    () => import("../canvas/step-search-dialog").then((m) => setStepSearch(() => m.StepSearchDialog)),
    [],
  );
  useFirstUse(StepSearch === null, loadStepSearch);
  // Loaded when first opened, then kept mounted: it animates closed.
  const publishMounted = useOnceTrue(publishOpen);
  return (
    <>
      {!readOnly && StepSearch && (
        <StepSearch
          open={searchOpen}
          onClose={() => setSearchOpen(false)}
          nodes={view.firstPaint.nodes}
          builtin={Boolean(automation.builtinSlug)}
          target={label}
          // A step added from the add-step search gets the focus in its first field.
          onAdd={(definition) => view.addStep(definition, true)}
        />
      )}
      {canEdit && publishMounted && (
        <EditorPublishDialog
          automation={automation}
          draftGraph={graph}
          draftName={name}
          policy={policy}
          unchanged={view.unchanged}
          open={publishOpen}
          onClose={() => setPublishOpen(false)}
          onPolicyChange={setPolicy}
          onNameChange={setName}
          beforePublish={view.flushSave}
          onNotice={view.onNotice}
        />
      )}
    </>
  );
}
