import { AppError } from "@/lib/errors";

/**
 * Text PostgreSQL cannot store: a NUL character (refused in `text` and `jsonb`) or half of a
 * surrogate pair (refused in `jsonb`; a broken emoji, usually from cutting a string in two). Left
 * alone, either reaches the database and fails there as a 500; refused here, it is a 400 that
 * names the field.
 */
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * In JSON text both can only arrive escaped (`\u0000`, `\ud83d`): a body without such an escape
 * needs no walk, which keeps the check off the hot ingest path.
 */
const SUSPECT_ESCAPE = /\\u(?:0000|[dD][89a-fA-F][0-9a-fA-F]{2})/;

/** The first string or key in `value` PostgreSQL cannot store, with its path ("nodes.1.params.body"). */
export function findUnstorable(value: unknown, path = ""): { path: string; text: string } | null {
  if (typeof value === "string") return UNSTORABLE.test(value) ? { path, text: value } : null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findUnstorable(value[i], path ? `${path}.${i}` : String(i));
      if (found) return found;
    }
    return null;
  }
  if (value && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      const at = path ? `${path}.${key}` : key;
      if (UNSTORABLE.test(key)) return { path: at, text: key };
      const found = findUnstorable(item, at);
      if (found) return found;
    }
  }
  return null;
}

/** The 400 for a value with text that cannot be stored, naming the field. */
export function unstorableError(found: { path: string; text: string }): AppError {
  const what = found.text.includes("\u0000")
    ? "a NUL character (\\u0000)"
    : "half of a surrogate pair (a broken emoji or other character)";
  const where = found.path ? `The field '${found.path}'` : "The request body";
  const message = `${where} contains ${what}, which cannot be stored. Remove it and send the request again.`;
  return new AppError(400, "bad_request", message, [
    { path: found.path || undefined, message: `${found.path || "body"}: contains ${what}` },
  ]);
}

/** Throws the 400 when a parsed JSON body holds text PostgreSQL cannot store; `text` is its source. */
export function assertStorableJson(text: string, value: unknown): void {
  if (!SUSPECT_ESCAPE.test(text)) return;
  const found = findUnstorable(value);
  if (found) throw unstorableError(found);
}
