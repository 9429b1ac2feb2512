import { paramFields } from "@/lib/automations/editor/param-form";
import { DEFAULT_RETRY, describeRetry, retryParams, type RetryParams } from "@/lib/automations/nodes/retry";
import type { NodeDefinition } from "@/lib/automations/nodes/types";

/**
 * The "On failure" section of an action's settings (SPEC §2 "Retries"): the inputs it shows for
 * a stored `retry`, the value it saves for what was typed, the messages under its fields and the
 * sentence that describes the schedule. Pure; `retry-config.tsx` holds the state.
 *
 * Attempts count the first try, so the schema's `attempts: 1` is "Retry" switched off; with the
 * switch on, the form asks for 2 to 10. A `retry` left out means the engine's default, and the
 * section says so until the merchant changes something.
 */

/** The param the section edits; the generic form leaves it out. */
export const RETRY_PARAM = "retry";

export const BACKOFF_OPTIONS: readonly { value: RetryParams["backoff"]; label: string }[] = [
  { value: "exponential", label: "Doubling" },
  { value: "fixed", label: "Same each time" },
];

/** Whether a node's params take a `retry` (today only "Send HTTP request"). */
export function takesRetry(definition: NodeDefinition): boolean {
  return paramFields(definition).some((field) => field.name === RETRY_PARAM);
}

/** What the section's inputs hold: text as typed, so a half-typed number is not lost. */
export interface RetryInputs {
  /** The "Retry" switch; off saves `attempts: 1`. */
  on: boolean;
  attempts: string;
  backoff: string;
  initialSeconds: string;
}

function asText(value: unknown, fallback: number | string): string {
  return typeof value === "number" || typeof value === "string" ? String(value) : String(fallback);
}

/**
 * The inputs for a stored `retry` (undefined: the default). Switched off, the hidden attempts
 * input keeps the default's 3, so switching back on offers retries again rather than 1.
 */
export function retryInputs(value: unknown): RetryInputs {
  const stored = typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
  const on = stored.attempts !== 1;
  return {
    on,
    attempts: on ? asText(stored.attempts, DEFAULT_RETRY.attempts) : String(DEFAULT_RETRY.attempts),
    backoff: asText(stored.backoff, DEFAULT_RETRY.backoff),
    initialSeconds: asText(stored.initialSeconds, DEFAULT_RETRY.initialSeconds),
  };
}

/** A whole number as typed: "" is missing; anything unreadable is kept so its message shows. */
function parseNumber(text: string): number | string | undefined {
  const trimmed = text.trim();
  if (trimmed === "") return undefined;
  const value = Number(trimmed);
  return Number.isFinite(value) ? value : text;
}

/** The `retry` param the inputs stand for (possibly invalid: `retryErrors` says why). */
export function retryValue(inputs: RetryInputs): Record<string, unknown> {
  const value: Record<string, unknown> = {
    attempts: inputs.on ? parseNumber(inputs.attempts) : 1,
    backoff: inputs.backoff,
    initialSeconds: parseNumber(inputs.initialSeconds),
  };
  for (const key of Object.keys(value)) if (value[key] === undefined) delete value[key];
  return value;
}

export type RetryField = "attempts" | "backoff" | "initialSeconds";

export const RETRY_FIELD_LABELS: Record<RetryField, string> = {
  attempts: "Attempts",
  backoff: "Wait between attempts",
  initialSeconds: "First wait (seconds)",
};

/** How each field is named in its message: the label without its unit. */
const SUBJECTS: Record<RetryField, string> = {
  attempts: "Attempts",
  backoff: "Wait between attempts",
  initialSeconds: "First wait",
};

function isRetryField(key: unknown): key is RetryField {
  return key === "attempts" || key === "backoff" || key === "initialSeconds";
}

/**
 * The first message per field, as a sentence naming it ("Attempts must be at most 10."), from the
 * same schema the save and the engine use; attempts of 1 with the switch on ask for the switch.
 */
export function retryErrors(inputs: RetryInputs): Partial<Record<RetryField, string>> {
  const errors: Partial<Record<RetryField, string>> = {};
  // The schema fills a missing setting with its default; in the form, an emptied box is a mistake.
  if (inputs.on && inputs.attempts.trim() === "") errors.attempts = `${SUBJECTS.attempts} is required.`;
  if (inputs.initialSeconds.trim() === "") errors.initialSeconds = `${SUBJECTS.initialSeconds} is required.`;
  const value = retryValue(inputs);
  const result = retryParams.safeParse(value);
  if (!result.success) {
    for (const issue of result.error.issues) {
      const key = issue.path[0];
      if (!isRetryField(key) || errors[key]) continue;
      // The enum's own message names the stored values; the merchant picks from labels.
      const message = key === "backoff" ? "must be Doubling or Same each time" : issue.message;
      errors[key] = `${SUBJECTS[key]} ${message}.`;
    }
  }
  if (!errors.attempts && inputs.on && value.attempts === 1) {
    errors.attempts = "Attempts must be at least 2; switch Retry off for no retries.";
  }
  return errors;
}

/**
 * The sentence under the section: the schedule `describeRetry` computes for the stored `retry`
 * ("On failure: retry 2 times, waiting 30 s, then 1 min."), the default's when there is none, and
 * null while the value is invalid (its messages say why instead).
 */
export function retrySentence(value: unknown): { text: string; isDefault: boolean } | null {
  if (value === undefined) return { text: describeRetry(DEFAULT_RETRY), isDefault: true };
  const result = retryParams.safeParse(value);
  return result.success ? { text: describeRetry(result.data), isDefault: false } : null;
}
