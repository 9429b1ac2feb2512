"use client";

import { useEffect, useId, useRef } from "react";
import { PublishForm, type PublishDialogProps } from "./publish-form";

export type { PublishDialogProps } from "./publish-form";

/**
 * "Publish version N+1": a change note, what changes in the steps, what happens to the runs
 * waiting right now, then Publish. A native modal `<dialog>`: focus moves in (to the note) and
 * stays in, the page behind is inert, Escape closes, except while publishing, so the answer is
 * never lost. The body mounts on open, so every opening starts fresh.
 */
export function PublishDialog(props: PublishDialogProps) {
  const { open, onClose } = props;
  const dialog = useRef<HTMLDialogElement>(null);
  const note = useRef<HTMLTextAreaElement>(null);
  const busy = useRef(false);
  const titleId = useId();

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) {
      element.showModal();
      // The name first when one is asked for, else the note.
      (element.querySelector<HTMLElement>("[data-first-field]") ?? note.current)?.focus();
    } else if (!open && element.open) {
      element.close();
    }
  }, [open]);

  return (
    <dialog
      ref={dialog}
      aria-labelledby={titleId}
      onCancel={(event) => {
        if (busy.current) event.preventDefault();
      }}
      onClose={() => {
        // Escape (or a form with method="dialog") closed it; tell the owner, who holds `open`.
        if (open) onClose();
      }}
      className="m-auto max-h-[calc(100dvh-2rem)] w-[calc(100%-2rem)] max-w-lg overflow-y-auto rounded-xl border border-zinc-200 bg-white p-0 text-left text-zinc-900 shadow-xl backdrop:bg-zinc-900/30"
    >
      {open && <PublishForm {...props} titleId={titleId} noteRef={note} busyRef={busy} />}
    </dialog>
  );
}
