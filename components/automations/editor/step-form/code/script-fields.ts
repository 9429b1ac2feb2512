import { tokenizer, type Token } from "acorn";
import type { ScriptCompletions } from "./script-completions";

/** An `entity.<field>` the trigger's record does not have, where it is in the script. */
export interface UnknownField {
  from: number;
  to: number;
  message: string;
}

/**
 * The `entity.<x>` (and an order's `entity.customer.<x>`) in a code step's script that are not
 * fields of the trigger's record, as warnings: the domain field catalog (the same list
 * `entity.` completes from, `scriptCompletions`) is checked as `{entity.…}` tokens are. Strings
 * and comments are skipped (acorn's tokenizer). `recordName` names the record ("order"); with no
 * record known (`completions.entity` unset) nothing is checked. Pure and browser-safe.
 */
export function unknownEntityFields(
  source: string,
  completions: ScriptCompletions,
  recordName: string | null,
): UnknownField[] {
  const fields = completions.entity;
  if (!fields || !recordName) return [];
  const tokens: Token[] = [];
  try {
    for (const token of tokenizer(source, {
      ecmaVersion: 2023,
      sourceType: "script",
      allowReturnOutsideFunction: true,
    }))
      tokens.push(token);
  } catch {
    // A syntax error is reported on its own; check what came before it.
  }
  const known = new Set(fields.map((f) => f.label));
  const customerFields = completions["entity.customer"];
  const customerKnown = customerFields ? new Set(customerFields.map((f) => f.label)) : null;
  const isName = (t: Token | undefined) => t?.type.label === "name";
  const text = (t: Token) => source.slice(t.start, t.end);
  const isDot = (t: Token | undefined) => t?.type.label === ".";
  const found: UnknownField[] = [];
  tokens.forEach((token, i) => {
    if (!isName(token) || text(token) !== "entity" || isDot(tokens[i - 1])) return;
    if (!isDot(tokens[i + 1]) || !isName(tokens[i + 2])) return;
    const field = tokens[i + 2]!;
    const name = text(field);
    if (!known.has(name)) {
      found.push({
        from: field.start,
        to: field.end,
        message: `'${name}' is not a field of the ${recordName}, so entity.${name} is undefined. Its fields: ${[...known].join(", ")}.`,
      });
      return;
    }
    if (name === "customer" && customerKnown && isDot(tokens[i + 3]) && isName(tokens[i + 4])) {
      const sub = tokens[i + 4]!;
      const subName = text(sub);
      if (!customerKnown.has(subName))
        found.push({
          from: sub.start,
          to: sub.end,
          message: `'${subName}' is not a field of the customer, so entity.customer.${subName} is undefined. Its fields: ${[...customerKnown].join(", ")}.`,
        });
    }
  });
  return found;
}
