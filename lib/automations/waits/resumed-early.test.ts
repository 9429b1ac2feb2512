import { describe, expect, it } from "vitest";
import { resumedEarlyText, spanInWords } from "./resumed-early";

describe("resumed early", () => {
  it("says the span in words, largest two units", () => {
    expect(spanInWords(30_000)).toBe("less than a minute");
    expect(spanInWords(60_000)).toBe("1 minute");
    expect(spanInWords(119 * 60_000)).toBe("1 hour 59 minutes");
    expect(spanInWords(2 * 3_600_000)).toBe("2 hours");
    expect(spanInWords(51 * 3_600_000 + 5 * 60_000)).toBe("2 days 3 hours");
    expect(spanInWords(86_400_000)).toBe("1 day");
  });

  it("names who resumed the wait and how early", () => {
    const at = new Date("2026-12-07T10:00:00Z");
    expect(resumedEarlyText("ada@shop.test", new Date("2026-12-07T11:59:30Z"), at)).toBe(
      "Resumed early by ada@shop.test, 1 hour 59 minutes before it was due.",
    );
    expect(resumedEarlyText("ada@shop.test", new Date("2026-12-07T10:00:20Z"), at)).toBe(
      "Resumed by ada@shop.test when it was due.",
    );
  });
});
