import { describe, expect, it } from "vitest";
import { readWeekdays, toggleWeekday, WEEKDAYS } from "./wait-until-options";

describe("weekdays", () => {
  it("runs Monday to Sunday with ISO numbers", () => {
    expect(WEEKDAYS.map((d) => [d.day, d.short, d.long])).toEqual([
      [1, "Mon", "Monday"],
      [2, "Tue", "Tuesday"],
      [3, "Wed", "Wednesday"],
      [4, "Thu", "Thursday"],
      [5, "Fri", "Friday"],
      [6, "Sat", "Saturday"],
      [7, "Sun", "Sunday"],
    ]);
  });

  it("ticks a day in order and never twice", () => {
    expect(toggleWeekday([5, 1], 3, true)).toEqual([1, 3, 5]);
    expect(toggleWeekday([1, 3], 3, true)).toEqual([1, 3]);
    expect(toggleWeekday(undefined, 7, true)).toEqual([7]);
  });

  it("leaves no list at all when the last day is unticked (any day)", () => {
    expect(toggleWeekday([2, 4], 2, false)).toEqual([4]);
    expect(toggleWeekday([4], 4, false)).toBeUndefined();
  });

  it("reads stored weekdays leniently", () => {
    expect(readWeekdays([1, 2])).toEqual([1, 2]);
    expect(readWeekdays([])).toBeUndefined();
    expect(readWeekdays("1,2")).toBeUndefined();
    expect(readWeekdays([1, "x"])).toEqual([1]);
  });
});
