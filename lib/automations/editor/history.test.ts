import { describe, expect, test } from "vitest";
import { HISTORY_LIMIT, paramsKey, recordEdit, redoEdit, startHistory, undoEdit } from "./history";

describe("undo and redo", () => {
  test("undo goes back through the edits, redo forward again", () => {
    let history = recordEdit(recordEdit(startHistory("a"), "b"), "c");
    history = undoEdit(history)!;
    expect(history.present).toBe("b");
    history = undoEdit(history)!;
    expect(history.present).toBe("a");
    expect(undoEdit(history)).toBeNull();
    history = redoEdit(history)!;
    expect(history.present).toBe("b");
    history = redoEdit(history)!;
    expect(history.present).toBe("c");
    expect(redoEdit(history)).toBeNull();
  });

  test("a new edit after an undo drops what could have been redone", () => {
    const history = recordEdit(undoEdit(recordEdit(startHistory("a"), "b"))!, "x");
    expect(history.present).toBe("x");
    expect(redoEdit(history)).toBeNull();
    expect(undoEdit(history)?.present).toBe("a");
  });

  test("only the last edits are kept", () => {
    let history = startHistory(0);
    for (let n = 1; n <= HISTORY_LIMIT + 20; n++) history = recordEdit(history, n);
    expect(history.past.length).toBe(HISTORY_LIMIT);
    while (undoEdit(history)) history = undoEdit(history)!;
    expect(history.present).toBe(20);
  });
});

describe("paramsKey", () => {
  test("changes with a step's params, not with where it sits", () => {
    const step = { id: "w", type: "auto.control.wait", params: { duration: 2 }, position: { x: 0, y: 0 } };
    const moved = { ...step, position: { x: 300, y: 80 } };
    const edited = { ...step, params: { duration: 3 } };
    expect(paramsKey({ nodes: [moved], edges: [] })).toBe(paramsKey({ nodes: [step], edges: [] }));
    expect(paramsKey({ nodes: [edited], edges: [] })).not.toBe(paramsKey({ nodes: [step], edges: [] }));
  });
});
