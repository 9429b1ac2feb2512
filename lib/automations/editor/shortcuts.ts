/**
 * The flow editor's keyboard shortcuts, as a pure reading of a key press: Delete or Backspace
 * removes the selection, Ctrl/⌘+Z undoes, Ctrl/⌘+Shift+Z or Ctrl/⌘+Y redoes, Ctrl/⌘+C copies
 * and Ctrl/⌘+V pastes; `/` or Ctrl/⌘+K opens the add-step search, Ctrl/⌘+Enter publishes. A
 * read-only canvas only copies.
 */
export type EditorShortcut = "delete" | "undo" | "redo" | "copy" | "paste" | "add-step" | "publish";

export interface KeyPress {
  key: string;
  metaKey: boolean;
  ctrlKey: boolean;
  shiftKey: boolean;
}

/** The shortcuts as buttons announce them (`aria-keyshortcuts`) and their titles say them. */
export const SHORTCUT_KEYS = {
  "add-step": { aria: "/ Control+K Meta+K", words: "/ or Ctrl+K" },
  publish: { aria: "Control+Enter Meta+Enter", words: "Ctrl+Enter" },
} as const;

/**
 * Shortcuts that still work while the focus is in a text field (but not in the code editor):
 * they have a modifier, so they never eat a typed character.
 */
export const SHORTCUTS_IN_FIELDS: ReadonlySet<EditorShortcut> = new Set(["add-step", "publish"]);

export function shortcutOf(press: KeyPress, readOnly: boolean): EditorShortcut | null {
  const mod = press.metaKey || press.ctrlKey;
  if (!mod) {
    if (readOnly) return null;
    if (press.key === "Delete" || press.key === "Backspace") return "delete";
    if (press.key === "/" && !press.shiftKey) return "add-step";
    return null;
  }
  const key = press.key.toLowerCase();
  if (key === "c") return "copy";
  if (readOnly) return null;
  if (key === "z") return press.shiftKey ? "redo" : "undo";
  if (key === "y") return "redo";
  if (key === "v") return "paste";
  if (key === "k" && !press.shiftKey) return "add-step";
  if (key === "enter" && !press.shiftKey) return "publish";
  return null;
}
