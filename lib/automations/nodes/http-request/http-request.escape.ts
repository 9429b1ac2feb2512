import type { TokenEscape } from "@/lib/automations/tokens/escape";
import { findTokens } from "@/lib/automations/tokens/render";

/**
 * How an HTTP action's token values are escaped where they land (SPEC §2 "Trust at the edges").
 * Browser-safe: the engine, the dry run and the editor's preview escape the same way.
 */

/**
 * The body's escaping, from what it is: JSON-encoded when a `Content-Type` header says JSON
 * (`application/json`, `application/problem+json`), or when there is none (we then send
 * `application/json`) and the body's own text is JSON-shaped (starts with `{`, `[` or `"`);
 * percent-encoded for `application/x-www-form-urlencoded`. Any other body (text/plain, XML, a
 * body that is one token) gets the values as they are, as before: only the merchant knows its
 * grammar, and `| json` / `| url` say what they want.
 */
export function bodyEscape(params: { headers?: unknown; body?: unknown }): TokenEscape | undefined {
  const contentType = headerValue(params.headers, "content-type");
  if (contentType !== undefined) {
    const mediaType = contentType.split(";")[0]!.trim().toLowerCase();
    if (mediaType === "application/json" || mediaType.endsWith("+json")) return "json";
    if (mediaType === "application/x-www-form-urlencoded") return "url";
    return undefined;
  }
  return typeof params.body === "string" && /^\s*[[{"]/.test(withoutTokens(params.body)) ? "json" : undefined;
}

/** Per templated param: the URL percent-encoded, header values kept on one line, the body by its kind. */
export function httpTokenEscapes(
  params: Readonly<Record<string, unknown>>,
): Partial<Record<string, TokenEscape>> {
  return { url: "url", headers: "header", body: bodyEscape(params) };
}

function headerValue(headers: unknown, name: string): string | undefined {
  if (typeof headers !== "object" || headers === null) return undefined;
  for (const [key, value] of Object.entries(headers))
    if (key.toLowerCase() === name && typeof value === "string") return value;
  return undefined;
}

/** The template's own text, its tokens taken out: what says whether it is JSON. */
function withoutTokens(text: string): string {
  let out = "";
  let last = 0;
  for (const token of findTokens(text)) {
    out += text.slice(last, token.start);
    last = token.end;
  }
  return out + text.slice(last);
}

/** What an HTTP header value can carry: tabs, visible ASCII and Latin-1 (Node refuses the rest). */
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/**
 * Why a header cannot be sent (a value a token filled with "李" or an emoji), or null. Said before
 * the request is recorded, so the step fails once, in words, instead of retrying a request the
 * HTTP client refuses every time.
 */
export function headerRefusal(headers: Record<string, string>): string | null {
  const bad = Object.entries(headers).find(([, value]) => !HEADER_VALUE.test(value));
  return bad
    ? `The ${bad[0]} header holds characters an HTTP header cannot carry. Put the value in the body, or write the token with | url to percent-encode it.`
    : null;
}
