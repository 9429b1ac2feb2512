"use client";

import { useEffect, useRef } from "react";
import { RestoreButton } from "@/components/automations/archive-button";
import { Notice } from "@/components/ui/notice";
import type { AutomationView } from "@/lib/automations/lifecycle/read";
import { PublishState } from "./publish-state";
import type { SaveState } from "../state/use-autosave";

export interface EditorBannersProps {
  automation: Pick<AutomationView, "id" | "name" | "status" | "version">;
  canEdit: boolean;
  canArchive: boolean;
  /** A phone: the canvas is read-only, and a notice says to edit on a larger screen. */
  narrow: boolean;
  draftChanged: boolean;
  /** What just happened (published, reverted, reset), until dismissed. */
  notice: string | null;
  onDismissNotice(): void;
  saveState: SaveState;
  /** The old version shown read-only on the canvas, or null. */
  viewingVersion: number | null;
  onBackToDraft(): void;
}

/**
 * What the editor says above its columns: edit on a larger screen (phones), archived, a notice,
 * someone else changed the draft, viewing an old version.
 */
export function EditorBanners({
  automation,
  canEdit,
  canArchive,
  narrow,
  draftChanged,
  notice,
  onDismissNotice,
  saveState,
  viewingVersion,
  onBackToDraft,
}: EditorBannersProps) {
  return (
    <>
      {narrow && (
        <div className="space-y-3 border-b border-zinc-200 bg-white px-4 py-3 md:hidden">
          <Notice tone="info" title="The flow editor needs a larger screen">
            Open this page on a tablet or computer to edit; you can still view runs and publish state here.
          </Notice>
          <PublishState
            status={automation.status}
            version={automation.version}
            changed={draftChanged}
            canEdit={canEdit}
          />
        </div>
      )}

      {automation.status === "archived" && (
        <div
          role="status"
          className="flex flex-wrap items-center justify-between gap-3 border-b border-zinc-200 bg-zinc-50 px-4 py-2 text-sm text-zinc-800"
        >
          <span>
            This automation is archived: it starts no runs, and its runs and history are kept. It is read-only
            {canArchive ? "; restore it to edit it again (it comes back paused)." : "."}
          </span>
          {canArchive && <RestoreButton id={automation.id} name={automation.name} />}
        </div>
      )}
      {notice && <ActionNotice text={notice} onDismiss={onDismissNotice} />}
      {saveState.kind === "conflict" && (
        <Notice tone="error" title="Someone else changed this draft" className="m-3">
          {saveState.message}{" "}
          <button type="button" className="font-semibold underline" onClick={() => window.location.reload()}>
            Reload
          </button>
        </Notice>
      )}
      {viewingVersion !== null && (
        <div
          role="status"
          className="flex items-center justify-between gap-3 border-b border-sky-200 bg-sky-50 px-4 py-2 text-sm text-sky-900"
        >
          <span>Viewing version {viewingVersion} — read-only.</span>
          <button type="button" className="font-semibold underline" onClick={onBackToDraft}>
            Back to the draft
          </button>
        </div>
      )}
    </>
  );
}

/**
 * What just happened (published, reverted…), focused when it appears: the dialog that did it has
 * closed and the editor below was redrawn with the new version, so focus would fall to the page.
 */
function ActionNotice({ text, onDismiss }: { text: string; onDismiss(): void }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    ref.current?.focus();
  }, [text]);
  return (
    <div
      ref={ref}
      tabIndex={-1}
      data-testid="editor-notice"
      className="m-3 rounded-lg focus:outline-2 focus:outline-indigo-600"
    >
      <Notice tone="success">
        {text}{" "}
        <button type="button" className="font-semibold underline" onClick={onDismiss}>
          Dismiss
        </button>
      </Notice>
    </div>
  );
}
