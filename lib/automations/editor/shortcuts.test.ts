import { describe, expect, test } from "vitest";
import { shortcutOf, type KeyPress } from "./shortcuts";

const press = (key: string, mods: Partial<Omit<KeyPress, "key">> = {}): KeyPress => ({
  key,
  metaKey: false,
  ctrlKey: false,
  shiftKey: false,
  ...mods,
});

describe("shortcutOf", () => {
  test("Delete and Backspace remove the selection", () => {
    expect(shortcutOf(press("Delete"), false)).toBe("delete");
    expect(shortcutOf(press("Backspace"), false)).toBe("delete");
    expect(shortcutOf(press("Delete", { ctrlKey: true }), false)).toBeNull();
  });

  test("Ctrl or ⌘ with Z undoes; with Shift+Z or Y redoes; C copies; V pastes", () => {
    expect(shortcutOf(press("z", { ctrlKey: true }), false)).toBe("undo");
    expect(shortcutOf(press("Z", { metaKey: true, shiftKey: true }), false)).toBe("redo");
    expect(shortcutOf(press("y", { ctrlKey: true }), false)).toBe("redo");
    expect(shortcutOf(press("c", { metaKey: true }), false)).toBe("copy");
    expect(shortcutOf(press("v", { ctrlKey: true }), false)).toBe("paste");
  });

  test("plain letters are no shortcut", () => {
    for (const key of ["z", "y", "c", "v", "a"]) expect(shortcutOf(press(key), false)).toBeNull();
    expect(shortcutOf(press("a", { ctrlKey: true }), false)).toBeNull();
  });

  test("a read-only canvas only copies", () => {
    expect(shortcutOf(press("c", { ctrlKey: true }), true)).toBe("copy");
    expect(shortcutOf(press("Delete"), true)).toBeNull();
    expect(shortcutOf(press("z", { ctrlKey: true }), true)).toBeNull();
    expect(shortcutOf(press("y", { ctrlKey: true }), true)).toBeNull();
    expect(shortcutOf(press("v", { ctrlKey: true }), true)).toBeNull();
  });
});
