import { isDomain } from "@/lib/entities/domains";
import { isKnownFieldPath, readPath } from "@/lib/entities/fields";
import { aDomain } from "@/lib/automations/nodes/triggers";
import type { TriggerDomain } from "@/lib/automations/nodes/types";

/**
 * `{token}` templating (SPEC §2): string params name values of the run, filled in when a step
 * runs. Pure and browser-safe. Nothing is ever evaluated: a token is a dot path into one of six
 * roots, and anything else in braces is left as written.
 *
 *   {entity.<path>}  the run's record      {event.<path>}      the event that started the run
 *   {steps.<id>.<path>} an earlier step's output   {variables.<name>}  the run's variables
 *   {run.id}         the run's id          {now}               the time the step runs, ISO 8601
 */

export const TOKEN_ROOTS = ["entity", "event", "steps", "variables", "run", "now"] as const;
export type TokenRoot = (typeof TOKEN_ROOTS)[number];

export interface FoundToken {
  /** The token as written, braces included: `{entity.total}`. */
  token: string;
  /** The first segment: `entity`. Not necessarily a known root. */
  root: string;
  /** The segments after the root: `["total"]`. */
  path: string[];
  /** Offsets of the token in the text: `text.slice(start, end) === token`. */
  start: number;
  end: number;
}

/** Only a letter right after `{` starts a token, so JSON (`{"a": 1}`) and `{ }` are left alone. */
const TOKEN = /\{([a-zA-Z][\w.]*)\}/g;

export function findTokens(text: string): FoundToken[] {
  const found: FoundToken[] = [];
  for (const match of text.matchAll(TOKEN)) {
    const [root = "", ...path] = (match[1] ?? "").split(".");
    found.push({ token: match[0], root, path, start: match.index, end: match.index + match[0].length });
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
}

export interface RenderOptions {
  /** Escape HTML in the values put into the text (not in the template itself): for email bodies. */
  escapeHtml?: boolean;
}

function isRoot(root: string): root is TokenRoot {
  return (TOKEN_ROOTS as readonly string[]).includes(root);
}

/** The value a token stands for in `ctx`, or `undefined` when there is none. */
export function resolveToken(token: Pick<FoundToken, "root" | "path">, ctx: TemplateContext): unknown {
  if (!isRoot(token.root)) return undefined;
  const path = token.path.join(".");
  switch (token.root) {
    case "entity":
      return readPath(ctx.entity, path);
    case "event":
      return readPath(ctx.event, path);
    case "steps":
      return readPath(ctx.steps, path);
    case "variables":
      return readPath(ctx.variables, path);
    case "run":
      return path === "id" ? ctx.run.id : undefined;
    case "now":
      return path === "" ? ctx.now : undefined;
  }
}

/** How a value reads in text: nothing for missing, ISO for dates, JSON for objects and lists. */
export function formatValue(value: unknown): string {
  if (value === undefined || value === null) return "";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint")
    return String(value);
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? "" : value.toISOString();
  if (typeof value === "object") {
    try {
      return JSON.stringify(value) ?? "";
    } catch {
      return "";
    }
  }
  return "";
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

/**
 * Fills every token of `text` from `ctx`. Unknown roots and missing values become empty text
 * (validation has already told the merchant about the ones it can know).
 */
export function renderTemplate(text: string, ctx: TemplateContext, options: RenderOptions = {}): string {
  let out = "";
  let last = 0;
  for (const token of findTokens(text)) {
    const value = formatValue(resolveToken(token, ctx));
    out += text.slice(last, token.start) + (options.escapeHtml ? escapeHtml(value) : value);
    last = token.end;
  }
  return out + text.slice(last);
}

export interface TokenCheckContext {
  /** The domain of the run's trigger; `null` when not known (no trigger above), and then `{entity.…}` is not checked. */
  domain: TriggerDomain | null;
  /** The ids of the steps that can have run before this one. */
  upstreamNodeIds: ReadonlySet<string>;
}

const NO_RECORD: Partial<Record<TriggerDomain, (token: string) => string>> = {
  webhook: (token) => `A webhook run has no record; use {event.payload.…} instead of ${token}.`,
  schedule: (token) =>
    `A scheduled run without an audience has no record, so ${token} stays empty; add an audience of customers, or use {event.…}.`,
  later: (token) => `A run started by a later step has no record; use {event.then.…} instead of ${token}.`,
};

function checkToken(found: FoundToken, ctx: TokenCheckContext): string | null {
  const { token, root, path } = found;
  if (path.some((segment) => segment === ""))
    return `${token} is not a valid token: a dot has nothing after it.`;
  switch (root) {
    case "event":
    case "variables":
      return null;
    case "run":
      return path.length === 1 && path[0] === "id"
        ? null
        : `${token} is not known; a run offers only {run.id}.`;
    case "now":
      return path.length === 0 ? null : `${token} is not known; use {now} for the current time.`;
    case "steps": {
      const [nodeId] = path;
      if (nodeId === undefined) return `${token} needs a step, as in {steps.<step id>.<field>}.`;
      return ctx.upstreamNodeIds.has(nodeId)
        ? null
        : `${token} refers to step '${nodeId}', which does not run before this step.`;
    }
    case "entity": {
      const { domain } = ctx;
      if (domain === null) return null;
      if (!isDomain(domain))
        return NO_RECORD[domain]?.(token) ?? `A ${domain} run has no record for ${token}.`;
      if (path.length === 0 || isKnownFieldPath(domain, path.join("."))) return null;
      return `${token} is not a field of ${aDomain(domain)}.`;
    }
    default:
      return `${token} is not a token Tillflow knows; a token starts with entity, event, steps, variables, run or now.`;
  }
}

/**
 * Every problem with the tokens of `text` that can be known before a run, as sentences for the
 * merchant, each once.
 */
export function checkTokens(text: string, ctx: TokenCheckContext): string[] {
  const messages = new Set<string>();
  for (const found of findTokens(text)) {
    const message = checkToken(found, ctx);
    if (message) messages.add(message);
  }
  return [...messages];
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
 * them filled in; other params are returned as they are. `escapeHtml` names the params whose
 * values are HTML (an email body).
 */
export function renderParams<P extends Record<string, unknown>>(
  params: P,
  templated: readonly string[] | undefined,
  ctx: TemplateContext,
  options: { escapeHtml?: readonly string[] } = {},
): P {
  const out: Record<string, unknown> = { ...params };
  for (const param of templated ?? []) {
    const escape = { escapeHtml: options.escapeHtml?.includes(param) ?? false };
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
