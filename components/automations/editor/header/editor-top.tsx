"use client";

import { EditControls } from "./edit-controls";
import { EditorBanners } from "./editor-banners";
import { EditorHeader } from "./editor-header";
import { useEditor, useEditorApi, useEditorView } from "../state/editor-context";
import { selectReadOnly } from "../state/store";

/** The header with its toolbar, and the notices above the columns, fed from the store and view. */
export function EditorTop() {
  const view = useEditorView();
  const { automation, canEdit, waitingRuns } = view;
  const api = useEditorApi();
  const { setName, undo, redo, setPublishOpen, setViewing } = api.getState();
  const name = useEditor((s) => s.name);
  const readOnly = useEditor(selectReadOnly);
  const narrow = useEditor((s) => s.narrow);
  const viewing = useEditor((s) => s.viewing);
  const canUndo = useEditor((s) => s.history.past.length > 0);
  const canRedo = useEditor((s) => s.history.future.length > 0);
  const canTidy = useEditor((s) => s.nodes.length > 0);
  return (
    <>
      <EditorHeader
        automation={automation}
        title={name.trim() || automation.name}
        waitingRuns={waitingRuns}
        canEdit={canEdit}
        saveState={view.saveState}
        onRename={readOnly ? null : setName}
        controls={
          canEdit &&
          !narrow && (
            <EditControls
              automation={automation}
              waitingRuns={waitingRuns}
              readOnly={readOnly}
              canUndo={canUndo}
              canRedo={canRedo}
              onUndo={undo}
              onRedo={redo}
              publishBlocked={view.publishBlocked}
              canPublish={view.canPublish}
              onPublish={() => setPublishOpen(true)}
              canTidy={canTidy}
              onTidy={view.tidyUp}
              canArchive={view.canArchive}
              beforeArchive={view.flushSave}
            />
          )
        }
      />
      <EditorBanners
        automation={automation}
        canEdit={canEdit}
        canArchive={view.canArchive}
        narrow={narrow}
        draftChanged={view.draftChanged}
        notice={view.notice}
        onDismissNotice={() => view.onNotice(null)}
        saveState={view.saveState}
        viewingVersion={viewing?.version ?? null}
        onBackToDraft={() => setViewing(null)}
      />
    </>
  );
}
