"use client";

import { useEffect } from "react";
import { shortcutOf, type EditorShortcut } from "@/lib/automations/editor/shortcuts";

function isTyping(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLElement &&
    (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName))
  );
}

/** What the shortcuts do: the editor's commands of those names. */
export interface EditorShortcutActions {
  deleteSelected(): void;
  undo(): void;
  redo(): void;
  copy(): void;
  paste(): void;
}

/**
 * The editor's keyboard shortcuts (`lib/automations/editor/shortcuts.ts`), anywhere on the page
 * but in a field. React Flow handles arrow keys on the canvas itself. Delete/Backspace are ours,
 * so a step deleted from the middle of a line is bridged (`removeSteps`) however it is deleted.
 */
export function useEditorShortcuts(
  readOnly: boolean,
  { deleteSelected, undo, redo, copy, paste }: EditorShortcutActions,
): void {
  useEffect(() => {
    const actions: Record<EditorShortcut, () => void> = { delete: deleteSelected, undo, redo, copy, paste };
    const onKey = (event: KeyboardEvent) => {
      if (isTyping(event.target)) return;
      const shortcut = shortcutOf(event, readOnly);
      if (!shortcut) return;
      // Copying leaves the browser's own copy be.
      if (shortcut !== "copy") event.preventDefault();
      actions[shortcut]();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [readOnly, deleteSelected, undo, redo, copy, paste]);
}
