"use client";

import { useEffect } from "react";
import { shortcutOf, SHORTCUTS_IN_FIELDS, type EditorShortcut } from "@/lib/automations/editor/shortcuts";

function isField(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName);
}

function isCodeEditor(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && target.isContentEditable;
}

/** What the shortcuts do: the editor's commands of those names. */
export interface EditorShortcutActions {
  deleteSelected(): void;
  undo(): void;
  redo(): void;
  copy(): void;
  paste(): void;
  /** Opens the add-step search. */
  openStepSearch(): void;
  /** Opens the publish dialog (when Publish may go). */
  publish(): void;
}

/**
 * The editor's keyboard shortcuts (`lib/automations/editor/shortcuts.ts`), anywhere on the page
 * but in a field (there only Ctrl/⌘+K and Ctrl/⌘+Enter; none in the code editor or a dialog). React Flow handles arrow keys on the canvas itself. Delete/Backspace are ours,
 * so a step deleted from the middle of a line is bridged (`removeSteps`) however it is deleted.
 */
export function useEditorShortcuts(
  readOnly: boolean,
  { deleteSelected, undo, redo, copy, paste, openStepSearch, publish }: EditorShortcutActions,
): void {
  useEffect(() => {
    const actions: Record<EditorShortcut, () => void> = {
      delete: deleteSelected,
      undo,
      redo,
      copy,
      paste,
      "add-step": openStepSearch,
      publish,
    };
    const onKey = (event: KeyboardEvent) => {
      // A dialog open (publish, a confirmation) has the keyboard to itself.
      if (event.defaultPrevented || document.querySelector("dialog[open]")) return;
      if (isCodeEditor(event.target)) return;
      const shortcut = shortcutOf(event, readOnly);
      if (!shortcut) return;
      if (isField(event.target) && !SHORTCUTS_IN_FIELDS.has(shortcut)) return;
      // A "/" typed in a field is a character; Ctrl/⌘ shortcuts are not.
      if (isField(event.target) && !(event.ctrlKey || event.metaKey)) return;
      // Copying leaves the browser's own copy be.
      if (shortcut !== "copy") event.preventDefault();
      actions[shortcut]();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [readOnly, deleteSelected, undo, redo, copy, paste, openStepSearch, publish]);
}
