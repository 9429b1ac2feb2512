/**
 * Where a token's value lands decides how it is escaped (SPEC §2 "Trust at the edges"), so a
 * record's value can never change the shape of what it is put into. Pure and browser-safe.
 *
 *   json    an HTTP body: inside a "…" string literal the value is JSON-string-escaped (a
 *           customer named `Eve","vip":true` stays one string); where a JSON value goes
 *           (`{"total": {entity.total}}`) it is written as JSON (65, "Eve", {"a":1}, null)
 *   url     percent-encoded (`&`, `?`, `/` stay inside their one query value or path segment),
 *           except a token the URL starts with, which supplies the scheme and host as written
 *   html    an email body: `<`, `&`, quotes escaped
 *   header  a header value (an email subject): line breaks and other control characters become
 *           a space, so a value cannot start another header
 *   mrkdwn  a Slack message: `&`, `<`, `>` escaped (`&amp;`, `&lt;`, `&gt;`), so a value cannot
 *           make a link or a mention (`<!channel>`); the merchant's own `<https://x|link>` and
 *           `*bold*` are theirs
 *
 * `| json`, `| url` and `| raw` choose the encoding themselves (`token-filters.ts`); in HTML and
 * in a Slack message their text is still escaped unless it is `| raw`, and a header never takes a
 * line break.
 */

export const TOKEN_ESCAPES = ["json", "url", "html", "header", "mrkdwn"] as const;
export type TokenEscape = (typeof TOKEN_ESCAPES)[number];

/** Where a token stands in a JSON template. */
export type JsonPlace = "string" | "value";

/**
 * For each span (a token's offsets, in order), whether it stands inside a JSON string literal of
 * the template's own text or where a value goes. Scans only the text between the spans, tracking
 * `"` and backslash escapes: a value's own quotes cannot change what the template meant.
 */
export function jsonPlaces(text: string, spans: readonly { start: number; end: number }[]): JsonPlace[] {
  const places: JsonPlace[] = [];
  let inString = false;
  let escaped = false;
  let at = 0;
  for (const span of spans) {
    for (; at < span.start; at += 1) {
      const ch = text[at];
      if (escaped) escaped = false;
      else if (inString && ch === "\\") escaped = true;
      else if (ch === '"') inString = !inString;
    }
    places.push(inString ? "string" : "value");
    // A backslash right before a token escapes the value's first character, not the template's next one.
    escaped = false;
    at = span.end;
  }
  return places;
}

// A lone surrogate half (JSON can carry one) would make encodeURIComponent throw.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** `text` percent-encoded as one URL component; a lone surrogate becomes U+FFFD rather than an error. */
export function percentEncode(text: string): string {
  return encodeURIComponent(text.replace(LONE_SURROGATE, "\uFFFD"));
}

/** The inside of a JSON string literal holding `text` (quotes, backslashes, control characters escaped). */
export function jsonStringContent(text: string): string {
  return JSON.stringify(text).slice(1, -1);
}

// Every control character but tab: CR and LF would end the header line, the rest are refused by HTTP.
const CONTROL = /[\u0000-\u0008\u000a-\u001f\u007f]+/g;

/** A value safe inside one header line: control characters (CR, LF…) become one space. */
export function headerSafe(text: string): string {
  return text.replace(CONTROL, " ");
}

const HTML_ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => HTML_ESCAPES[ch] ?? ch);
}

const MRKDWN_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;" };

/**
 * A value safe inside a Slack message (mrkdwn): the three characters Slack asks to be escaped,
 * so a customer named `<!channel>` or `<https://evil|click>` is shown, not obeyed.
 */
export function escapeMrkdwn(text: string): string {
  return text.replace(/[&<>]/g, (ch) => MRKDWN_ESCAPES[ch] ?? ch);
}
