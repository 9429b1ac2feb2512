import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "./client";
import { textArray, uuidArray } from "./array-literal";

describe("array literals", () => {
  it("carry any text to Postgres unchanged: quotes, backslashes, commas, braces, spaces, NULL, unicode", async () => {
    const values = ['a"b', "back\\slash", "x,y", "{braces}", " padded ", "NULL", "", "李小龙", '\\"'];
    const [row] = await getDb().execute<{ v: string[] }>(sql`select ${textArray(values)}::text[] as v`);
    expect(row!.v).toEqual(values);
  });

  it("refuse what is not a uuid instead of sending it", () => {
    expect(uuidArray(["7111f10e-02ab-8000-8000-000000000001"])).toBe(
      "{7111f10e-02ab-8000-8000-000000000001}",
    );
    expect(() => uuidArray(["1' or '1'='1"])).toThrow("Not a uuid");
  });
});
