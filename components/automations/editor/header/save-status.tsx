"use client";

import { RelativeTime } from "@/components/ui/relative-time";
import type { SaveState } from "../state/use-autosave";

/** "Saving…", "Saved 2 minutes ago", "Unsaved changes" or why saving failed, announced politely. */
export function SaveStatus({ state }: { state: SaveState }) {
  return (
    <span role="status" aria-live="polite" className="text-xs text-zinc-500">
      {state.kind === "saving" && "Saving…"}
      {state.kind === "unsaved" && "Unsaved changes"}
      {state.kind === "saved" && (
        <>
          Draft saved
          {state.at && (
            <>
              {" "}
              <RelativeTime value={state.at} brief />
            </>
          )}
        </>
      )}
      {state.kind === "error" && <span className="text-red-700">Couldn’t save: {state.message}</span>}
      {state.kind === "conflict" && <span className="text-red-700">Not saved: changed elsewhere</span>}
    </span>
  );
}
