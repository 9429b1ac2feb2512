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

describe("the add-step search and publishing", () => {
  test("/ or Ctrl/⌘+K opens the add-step search; Ctrl/⌘+Enter publishes", () => {
    expect(shortcutOf(press("/"), false)).toBe("add-step");
    expect(shortcutOf(press("k", { ctrlKey: true }), false)).toBe("add-step");
    expect(shortcutOf(press("K", { metaKey: true }), false)).toBe("add-step");
    expect(shortcutOf(press("Enter", { ctrlKey: true }), false)).toBe("publish");
    expect(shortcutOf(press("Enter", { metaKey: true }), false)).toBe("publish");
    expect(shortcutOf(press("Enter"), false)).toBeNull();
    expect(shortcutOf(press("k"), false)).toBeNull();
  });

  test("a read-only canvas neither adds steps nor publishes", () => {
    expect(shortcutOf(press("/"), true)).toBeNull();
    expect(shortcutOf(press("k", { ctrlKey: true }), true)).toBeNull();
    expect(shortcutOf(press("Enter", { ctrlKey: true }), true)).toBeNull();
  });
});
