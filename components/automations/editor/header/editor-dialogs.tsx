"use client";

import { useOnceTrue } from "@/components/ui/hooks/use-once-true";
import { EditorPublishDialog } from "../panel/lazy-parts";
import { useEditor, useEditorApi, useEditorView } from "../state/editor-context";
import { selectReadOnly } from "../state/store";
import { useAddTarget } from "../state/use-add-target";
import { StepSearchDialog } from "../canvas/step-search-dialog";

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
  // Loaded when first opened, then kept mounted: it animates closed.
  const publishMounted = useOnceTrue(publishOpen);
  return (
    <>
      {!readOnly && (
        <StepSearchDialog
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
