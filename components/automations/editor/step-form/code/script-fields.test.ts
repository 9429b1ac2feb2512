import { describe, expect, test } from "vitest";
import { scriptCompletions } from "./script-completions";
import { unknownEntityFields } from "./script-fields";

const order = scriptCompletions("order", []);

describe("unknownEntityFields", () => {
  test("warns about entity.shipping on an order, where it is", () => {
    const source = "const total = entity.total;\nif (entity.shipping) actions.tag('x');";
    const found = unknownEntityFields(source, order, "order");
    expect(found).toHaveLength(1);
    expect(found[0]!.message).toMatch(
      /^'shipping' is not a field of the order, so entity\.shipping is undefined\./,
    );
    expect(source.slice(found[0]!.from, found[0]!.to)).toBe("shipping");
  });

  test("the order's fields, its customer's, strings and comments pass", () => {
    const source = [
      "// entity.shipping in a comment",
      "const s = 'entity.shipping in a string';",
      "return entity.total > 100 && entity.customer && entity.customer.email;",
    ].join("\n");
    expect(unknownEntityFields(source, order, "order")).toEqual([]);
  });

  test("an unknown field of the order's customer is named too", () => {
    const found = unknownEntityFields("entity.customer.shoeSize", order, "order");
    expect(found.map((f) => f.message)).toEqual([
      expect.stringMatching(/^'shoeSize' is not a field of the customer/),
    ]);
  });

  test("no record known, nothing to check; a script that does not parse is checked up to the error", () => {
    expect(unknownEntityFields("entity.shipping", scriptCompletions(null, []), null)).toEqual([]);
    expect(unknownEntityFields("entity.shipping; (", order, "order")).toHaveLength(1);
  });
});
