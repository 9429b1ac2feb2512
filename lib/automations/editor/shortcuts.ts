/**
 * The flow editor's keyboard shortcuts, as a pure reading of a key press: Delete or Backspace
 * removes the selection, Ctrl/⌘+Z undoes, Ctrl/⌘+Shift+Z or Ctrl/⌘+Y redoes, Ctrl/⌘+C copies
 * and Ctrl/⌘+V pastes. A read-only canvas only copies.
 */
export type EditorShortcut = "delete" | "undo" | "redo" | "copy" | "paste";

export interface KeyPress {
  key: string;
  metaKey: boolean;
  ctrlKey: boolean;
  shiftKey: boolean;
}

export function shortcutOf(press: KeyPress, readOnly: boolean): EditorShortcut | null {
  const mod = press.metaKey || press.ctrlKey;
  if (!mod) return (press.key === "Delete" || press.key === "Backspace") && !readOnly ? "delete" : null;
  const key = press.key.toLowerCase();
  if (key === "c") return "copy";
  if (readOnly) return null;
  if (key === "z") return press.shiftKey ? "redo" : "undo";
  if (key === "y") return "redo";
  if (key === "v") return "paste";
  return null;
}
