"use client";

import { ReactFlowProvider } from "@xyflow/react";
import "@xyflow/react/dist/style.css";
import { useMemo, useState } from "react";
import { ActiveToggleNotices } from "@/components/automations/active-toggle";
import type { EditorFirstPaint } from "@/lib/automations/editor/first-paint";
import { catalogOf } from "@/lib/automations/nodes/catalog";
import type { AutomationView } from "@/lib/automations/lifecycle/read";
import { CanvasColumn } from "./canvas/canvas-column";
import { PaletteColumn } from "./canvas/palette-column";
import type { CredentialOption } from "./step-form/credential-options";
import { EditorTeamsProvider } from "./step-form/timing/approvers-config";
import { EditorDialogs } from "./header/editor-dialogs";
import { EditorTop } from "./header/editor-top";
import { SidePanel } from "./panel/side-panel";
import { EditorStoreContext, EditorViewContext, type EditorPage } from "./state/editor-context";
import { loadedNodeLogic } from "./state/node-logic-loader";
import { createEditorStore } from "./state/store";
import { useEditorWiring } from "./state/use-editor-wiring";

export interface FlowEditorProps {
  automation: AutomationView;
  /** Editors and admins; for a built-in, admins only; nobody while it is archived. */
  canEdit: boolean;
  /** Editors and admins may archive and restore it; never a built-in. */
  canArchive: boolean;
  isAdmin: boolean;
  waitingRuns: number;
  shopTimezone: string;
  /** The shop's credentials, without values, for the steps that choose one. */
  credentials: readonly CredentialOption[];
  /** The node catalog, the draft's sentences and issues, worked out on the server. */
  firstPaint: EditorFirstPaint;
}

/**
 * The flow editor: palette, React Flow canvas and a side panel (the selected step's settings,
 * ready issues, dry run, versions, automation settings). Edits autosave to the draft; Publish
 * makes the draft the next version. A viewer, or anyone looking at an old version, gets the same
 * canvas read-only. The state lives in one store per editor (`state/store.ts`); this file lays
 * the parts out.
 */
export function FlowEditor(props: FlowEditorProps) {
  // Outlives the editor below, which starts over from each new version (publish, revert).
  const [notice, setNotice] = useState<string | null>(null);
  return (
    <ReactFlowProvider>
      <ActiveToggleNotices>
        <Editor key={props.automation.version} {...props} notice={notice} onNotice={setNotice} />
      </ActiveToggleNotices>
    </ReactFlowProvider>
  );
}

/** One version's editor: its own store, made from the draft as it was when this version opened. */
function Editor(props: FlowEditorProps & Pick<EditorPage, "notice" | "onNotice">) {
  const { automation, canEdit, firstPaint } = props;
  const catalog = useMemo(() => catalogOf(firstPaint.nodes), [firstPaint.nodes]);
  // Later refreshes of the props do not reset edits: the store keeps the draft it started from.
  const [store] = useState(() =>
    createEditorStore({
      draft: automation.draftGraph,
      catalog,
      name: automation.name,
      policy: automation.inFlightPolicy,
      canEdit,
      logic: loadedNodeLogic(),
    }),
  );
  // A new object only when this renders: when the page's props change, not with each edit.
  const page: EditorPage = { ...props, catalog };
  return (
    <EditorStoreContext value={store}>
      <EditorLayout page={page} />
    </EditorStoreContext>
  );
}

function EditorLayout({ page }: { page: EditorPage }) {
  const view = useEditorWiring(page);
  // The shop's teams, for the Approval step's "Who must approve" lines.
  const approvers = page.firstPaint.facts.approvers;
  const teams = useMemo(
    () => Object.entries(approvers?.teams ?? {}).map(([id, team]) => ({ id, ...team })),
    [approvers],
  );
  return (
    <EditorViewContext value={view}>
      <EditorTeamsProvider teams={teams}>
        <div
          data-wide
          className="-mx-4 -my-6 flex flex-col sm:-mx-8 md:-my-8 md:h-[calc(100dvh-3.5rem)] md:min-h-[640px] lg:h-dvh"
        >
          <EditorTop />
          {/* Below md only the canvas shows (read-only); the palette and the panel need the room. */}
          <div className="grid min-h-0 flex-1 grid-cols-1 md:grid-cols-[12rem_minmax(0,1fr)_19rem] xl:grid-cols-[15rem_minmax(0,1fr)_26rem]">
            <PaletteColumn />
            <CanvasColumn />
            <SidePanel />
          </div>
          <EditorDialogs />
        </div>
      </EditorTeamsProvider>
    </EditorViewContext>
  );
}
