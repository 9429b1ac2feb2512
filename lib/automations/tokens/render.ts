import { readPath, SELECTOR_VALUE, splitPath } from "@/lib/domains/fields";
import {
  escapeHtml,
  escapeMrkdwn,
  headerSafe,
  jsonPlaces,
  jsonStringContent,
  percentEncode,
  type TokenEscape,
} from "./escape";
import { applyFilter, formatValue, isEncodingFilter, isTokenFilter, toJson } from "./filters";

export { escapeHtml } from "./escape";
export { formatValue } from "./filters";

/**
 * `{token}` templating (SPEC §2): string params name values of the run, filled in when a step
 * runs. Pure and browser-safe. Nothing is ever evaluated: a token is a dot path into one of six
 * roots, optionally through one filter, and anything else in braces is left as written.
 *
 *   {entity.<path>}  the run's record (an order's customer: {entity.customer.<path>})
 *   {event.<path>}   the event that started the run   {steps.<id>.<path>} an earlier step's output
 *   {variables.<name>}  the run's variables   {run.id} the run's id   {now} the time the step runs
 *   {entity.total | money}  "€65.00"          {entity.createdAt | date}  "Nov 30, 2026"
 *   {entity.name | json}  "\"Eve\""   {entity.name | url}  "Eve%20B"   {entity.note | raw}  as it is
 *
 * A value is escaped for where it lands (`token-escape.ts`: JSON, URL, HTML, header, Slack) unless an
 * encoding filter says otherwise. Checking tokens before a run is `tokens-check.ts`; the filters
 * are `token-filters.ts`.
 */

export const TOKEN_ROOTS = ["entity", "event", "steps", "variables", "run", "now"] as const;
export type TokenRoot = (typeof TOKEN_ROOTS)[number];

export interface FoundToken {
  /** The token as written, braces included: `{entity.total | money}`. */
  token: string;
  /** The first segment: `entity`. Not necessarily a known root. */
  root: string;
  /** The segments after the root: `["total"]`. */
  path: string[];
  /** The filter after `|` as written (`money`, maybe unknown, `""` after a bare `|`); null without one. */
  filter: string | null;
  /** Offsets of the token in the text: `text.slice(start, end) === token`. */
  start: number;
  end: number;
}

/**
 * Only a letter right after `{` starts a token, so JSON (`{"a": 1}`) and `{ }` are left alone.
 * A filter follows a `|`, spaces allowed around it: `{entity.total | money}`. Past the root a
 * segment may hold dashes (`{steps.h.headers.x-request-id}`: an answer's header), a selector
 * (`{entity.attributes.note_attributes[name=gift_note].value}`) or be `*`, every item of a list
 * (`{entity.lineItems.*.sku}`: "MUG, CAP"); lib/domains/fields.ts says the path syntax.
 */
const TOKEN = new RegExp(
  `\\{([a-zA-Z]\\w*(?:\\.(?:[\\w-]*(?:\\[[\\w-]+=${SELECTOR_VALUE}\\])?|\\*))*)(?:\\s*\\|\\s*(\\w*)\\s*)?\\}`,
  "g",
);

export function findTokens(text: string): FoundToken[] {
  const found: FoundToken[] = [];
  for (const match of text.matchAll(TOKEN)) {
    // A selector's value may hold a dot: `{entity.attributes.note_attributes[name=a.b].value}`.
    const [root = "", ...path] = splitPath(match[1] ?? "");
    found.push({
      token: match[0],
      root,
      path,
      filter: match[2] ?? null,
      start: match.index,
      end: match.index + match[0].length,
    });
  }
  return found;
}

export interface TemplateContext {
  entity: unknown;
  event: unknown;
  steps: unknown;
  variables: unknown;
  run: { id: string };
  now: Date;
  /** The shop's IANA time zone, for `| date`. Default: UTC. */
  timeZone?: string;
}

export interface RenderOptions {
  /** How the values put into the text are escaped (the template itself is left as written). */
  escape?: TokenEscape;
  /** The same as `escape: "html"`, for email bodies (kept for callers written before `escape`). */
  escapeHtml?: boolean;
}

function isRoot(root: string): root is TokenRoot {
  return (TOKEN_ROOTS as readonly string[]).includes(root);
}

/** The object a root reads from (`run` and `now` are not paths into one). */
function rootValue(root: TokenRoot, ctx: TemplateContext): unknown {
  switch (root) {
    case "entity":
      return ctx.entity;
    case "event":
      return ctx.event;
    case "steps":
      return ctx.steps;
    case "variables":
      return ctx.variables;
    case "run":
    case "now":
      return undefined;
  }
}

/** The value a token stands for in `ctx`, or `undefined` when there is none. */
export function resolveToken(token: Pick<FoundToken, "root" | "path">, ctx: TemplateContext): unknown {
  if (!isRoot(token.root)) return undefined;
  const path = token.path.join(".");
  if (token.root === "run") return path === "id" ? ctx.run.id : undefined;
  if (token.root === "now") return path === "" ? ctx.now : undefined;
  return readPath(rootValue(token.root, ctx), path);
}

/**
 * The currency a money token is written in: the `currency` beside the value (an order's total is
 * in the order's currency), else the run's record's.
 */
function currencyOf(token: Pick<FoundToken, "root" | "path">, ctx: TemplateContext): string | null {
  if (isRoot(token.root) && token.root !== "run" && token.root !== "now") {
    const beside = readPath(rootValue(token.root, ctx), [...token.path.slice(0, -1), "currency"].join("."));
    if (typeof beside === "string" && beside) return beside;
  }
  const own = readPath(ctx.entity, "currency");
  return typeof own === "string" && own ? own : null;
}

/**
 * A token's value through its filter when it has a known one that applies (the filter's text),
 * else the value itself.
 */
function filteredValue(token: Pick<FoundToken, "root" | "path" | "filter">, ctx: TemplateContext): unknown {
  const value = resolveToken(token, ctx);
  if (token.filter === "json") return toJson(value);
  if (token.filter && isTokenFilter(token.filter) && value !== undefined && value !== null) {
    const filtered = applyFilter(token.filter, value, {
      currency: token.filter === "money" ? currencyOf(token, ctx) : null,
      timeZone: ctx.timeZone,
    });
    if (filtered !== null) return filtered;
  }
  return value;
}

/**
 * A token's text: its value through its filter when it has a known one that applies, else the
 * value as `formatValue` writes it. One function for the engine, the dry run and the editor.
 */
export function renderToken(
  token: Pick<FoundToken, "root" | "path" | "filter">,
  ctx: TemplateContext,
): string {
  const value = filteredValue(token, ctx);
  // Every item's value (`{entity.lineItems.*.sku}`) reads as a list in a sentence: "MUG, CAP".
  if (Array.isArray(value) && token.filter !== "json" && token.path.includes("*"))
    return value.map((item) => formatValue(item)).join(", ");
  return formatValue(value);
}

/** Where a token stands in its text, as far as escaping cares. */
interface Landing {
  escape: TokenEscape | undefined;
  /** In a JSON text: inside a string literal or where a value goes. */
  place?: "string" | "value";
  /** Nothing but spaces before it: in a URL, the token that supplies the scheme and host. */
  first: boolean;
}

/** A token's text escaped for where it lands (`token-escape.ts`). */
function landedToken(token: FoundToken, ctx: TemplateContext, landing: Landing): string {
  const text = () => renderToken(token, ctx);
  switch (landing.escape) {
    case undefined:
      return text();
    case "header":
      // Whatever the filter: a line break in a header would start another one.
      return headerSafe(text());
    case "html":
      return token.filter === "raw" ? text() : escapeHtml(text());
    case "mrkdwn":
      return token.filter === "raw" ? text() : escapeMrkdwn(text());
    case "url":
      return isEncodingFilter(token.filter) || landing.first ? text() : percentEncode(text());
    case "json":
      if (isEncodingFilter(token.filter)) return text();
      return landing.place === "string" ? jsonStringContent(text()) : toJson(filteredValue(token, ctx));
  }
}

/**
 * Fills every token of `text` from `ctx`, each value escaped for `options.escape`. Unknown roots
 * and missing values become empty text (validation has already told the merchant about the ones
 * it can know); in JSON, where a value goes, `null`.
 */
export function renderTemplate(text: string, ctx: TemplateContext, options: RenderOptions = {}): string {
  const escape = options.escape ?? (options.escapeHtml ? "html" : undefined);
  const tokens = findTokens(text);
  const places = escape === "json" ? jsonPlaces(text, tokens) : [];
  let out = "";
  let last = 0;
  tokens.forEach((token, index) => {
    const before = text.slice(last, token.start);
    const first = index === 0 && before.trim() === "";
    out += before + landedToken(token, ctx, { escape, place: places[index], first });
    last = token.end;
  });
  return out + text.slice(last);
}

/**
 * The strings of a node's templated params, with the param they belong to: plain strings, and
 * the values of string records (HTTP headers).
 */
export function templatedStrings(
  params: Record<string, unknown>,
  templated: readonly string[] | undefined,
): { param: string; text: string }[] {
  const strings: { param: string; text: string }[] = [];
  for (const param of templated ?? []) {
    const value = Object.hasOwn(params, param) ? params[param] : undefined;
    if (typeof value === "string") strings.push({ param, text: value });
    else if (typeof value === "object" && value !== null && !Array.isArray(value)) {
      for (const [key, item] of Object.entries(value)) {
        if (typeof item === "string") strings.push({ param: `${param}.${key}`, text: item });
      }
    }
  }
  return strings;
}

/**
 * Renders a node's templated params (strings and string records) and returns the params with
 * them filled in; other params are returned as they are. `escape` says how each param's values
 * are escaped (a node's `tokenEscapes`); `escapeHtml` names params whose values are HTML, as
 * `escape: "html"` does.
 */
export function renderParams<P extends Record<string, unknown>>(
  params: P,
  templated: readonly string[] | undefined,
  ctx: TemplateContext,
  options: { escapeHtml?: readonly string[]; escape?: Partial<Record<string, TokenEscape>> } = {},
): P {
  const out: Record<string, unknown> = { ...params };
  for (const param of templated ?? []) {
    const escape: RenderOptions = {
      escape: options.escape?.[param],
      escapeHtml: options.escapeHtml?.includes(param) ?? false,
    };
    const value = out[param];
    if (typeof value === "string") out[param] = renderTemplate(value, ctx, escape);
    else if (typeof value === "object" && value !== null && !Array.isArray(value)) {
      out[param] = Object.fromEntries(
        Object.entries(value).map(([key, item]) => [
          key,
          typeof item === "string" ? renderTemplate(item, ctx, escape) : item,
        ]),
      );
    }
  }
  // The keys and kinds of values are unchanged; only template strings were filled in.
  return out as P;
}
