import { LATER_THEN_MAX_BYTES } from "@/lib/automations/nodes/later/later";

// Here for the callers that read both; the editor imports it from the trigger's folder (no zod).
export { laterSteps } from "@/lib/automations/nodes/triggers/later-steps";

/**
 * What a later step is handed back (`then`), checked the same way wherever one is given by hand:
 * a JSON object of at most 16 KB, as the Later action's. Pure and browser-safe ("Try it later…"
 * checks as you type; the service checks again).
 */
export function thenProblem(then: unknown): string | null {
  if (typeof then !== "object" || then === null || Array.isArray(then)) {
    return `'then' must be a JSON object, such as { "note": "hello" }.`;
  }
  const bytes = new TextEncoder().encode(JSON.stringify(then)).length;
  if (bytes > LATER_THEN_MAX_BYTES) {
    return `'then' is ${Math.ceil(bytes / 1000)} KB of JSON; a later step can be handed at most 16 KB.`;
  }
  return null;
}

/** Reads `then` from text as typed: empty is `{}`; otherwise JSON that `thenProblem` accepts. */
export function parseThenText(
  text: string,
): { ok: true; then: Record<string, unknown> } | { ok: false; error: string } {
  if (!text.trim()) return { ok: true, then: {} };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const detail = error instanceof Error ? error.message : "";
    return { ok: false, error: `'then' is not valid JSON${detail ? `: ${detail}` : ""}.` };
  }
  const problem = thenProblem(value);
  return problem ? { ok: false, error: problem } : { ok: true, then: value as Record<string, unknown> };
}
