import { z } from "zod";

/**
 * Building blocks for node params schemas. Every message is written to follow the field's name
 * ("tag cannot be empty"), because validation reports it as "Add tag: tag cannot be empty.".
 */

/** A params object that refuses settings it does not know, naming them. */
export function paramsObject<S extends z.core.$ZodLooseShape>(shape: S) {
  return z.strictObject(shape, {
    error: (issue) =>
      issue.code === "unrecognized_keys"
        ? `${issue.keys.map((key) => `'${key}'`).join(", ")} ${issue.keys.length === 1 ? "is not a setting" : "are not settings"} of this step`
        : undefined,
  });
}

/** A string setting, saying "is required" when it is missing rather than zod's type jargon. */
export function text() {
  return z.string({ error: (issue) => (issue.input === undefined ? "is required" : "must be text") });
}

/** Trimmed, non-empty text of at most `max` characters. */
export function line(max: number) {
  return text().trim().min(1, "cannot be empty").max(max, `is longer than ${max} characters`);
}

/**
 * One tag. A comma is refused rather than saved as part of the tag, since "a, b" would otherwise
 * become a single tag "a, b" that no list of tags ever matches.
 */
export function tagName() {
  return line(100).refine((value) => !value.includes(","), "cannot contain a comma; add one step per tag");
}

/** Text kept exactly as written (a message body), which must not be blank. */
export function body(max: number) {
  return text().regex(/\S/, "cannot be empty").max(max, `is longer than ${max} characters`);
}

export function integer(min: number, max?: number) {
  const base = z
    .number({ error: (issue) => (issue.input === undefined ? "is required" : "must be a number") })
    .int("must be a whole number")
    .min(min, `must be at least ${min}`);
  return max === undefined ? base : base.max(max, `must be at most ${max}`);
}

/** True when `value` starts with a `{token}`, whose value is only known when the step runs. */
export function startsWithToken(value: string): boolean {
  return /^\{[a-zA-Z][\w.]*\}/.test(value.trim());
}

const emailSchema = z.email();

export function isEmail(value: string): boolean {
  return emailSchema.safeParse(value).success;
}

/** A random url-safe string from the platform's CSPRNG (browser and Node alike). */
export function randomToken(bytes = 24): string {
  const data = new Uint8Array(bytes);
  crypto.getRandomValues(data);
  let binary = "";
  for (const byte of data) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** The id of one of the shop's credentials (Settings → Credentials); never the secret itself. */
export const credentialId = z.uuid({
  error: (issue) =>
    issue.input === undefined ? "is required" : "must be the id of a credential from Settings → Credentials",
});
