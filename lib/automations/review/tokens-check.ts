import { DOMAIN_LABELS, isDomain, type Domain } from "@/lib/domains/domains";
import { isKnownFieldPath } from "@/lib/domains/fields";
import { bringsCustomer, CUSTOMER_KEY } from "@/lib/domains/related";
import { aDomain } from "@/lib/automations/nodes/triggers/triggers";
import type { TriggerDomain } from "@/lib/automations/nodes/types";
import { filterChoices, isTokenFilter } from "@/lib/automations/tokens/filters";
import { findTokens, TOKEN_ROOTS, type FoundToken } from "@/lib/automations/tokens/render";
import { stepReadProblem, type DeclaredOutputs } from "./step-outputs";

/**
 * What can be known about a text's `{token}`s before a run: each problem as the sentence the
 * merchant reads, both in the ready issues (`validate`) and under the field being typed in (the
 * editor calls `checkTokens` with the same context). Pure and browser-safe.
 */

export interface TokenCheckContext {
  /** The domain of the run's trigger; `null` when not known (no trigger above), and then `{entity.…}` is not checked. */
  domain: TriggerDomain | null;
  /** The ids of the steps that can have run before this one. */
  upstreamNodeIds: ReadonlySet<string>;
  /**
   * What those steps declare they hand on (`step-outputs.ts`), so `{steps.<id>.<path>}` is checked
   * against it; a step left out is only checked to run before.
   */
  upstreamOutputs?: ReadonlyMap<string, DeclaredOutputs>;
}

const NO_RECORD: Partial<Record<TriggerDomain, (token: string) => string>> = {
  webhook: (token) => `A webhook run has no record; use {event.payload.…} instead of ${token}.`,
  schedule: (token) =>
    `A scheduled run without an audience has no record, so ${token} stays empty; add an audience of customers, or use {event.…}.`,
  later: (token) => `A run started by a later step has no record; use {event.then.…} instead of ${token}.`,
};

/** `{entity.…}` in a run of `domain`: its own fields, and an order's customer's. */
function checkEntityPath(token: string, domain: Domain, path: string[]): string | null {
  if (path.length === 0 || isKnownFieldPath(domain, path.join("."))) return null;
  const [first, ...rest] = path;
  if (first === CUSTOMER_KEY && bringsCustomer(domain)) {
    if (rest.length === 0 || isKnownFieldPath("customer", rest.join("."))) return null;
    return `${token} is not a field of a customer.`;
  }
  return `${token} is not a field of ${aDomain(domain)}.`;
}

/**
 * A record named as if it were a root (`{customer.name}`): where that value is in this flow, if
 * anywhere.
 */
function misplacedRecord(found: FoundToken, root: Domain, domain: TriggerDomain | null): string {
  const { token, path } = found;
  const rest = path.length > 0 ? `.${path.join(".")}` : "";
  const filter = found.filter !== null ? ` | ${found.filter}` : "";
  const notHere = `${token} is not available here`;
  if (domain === null || domain === root) return `${notHere}: use {entity${rest}${filter}}.`;
  if (root === "customer" && bringsCustomer(domain))
    return `${notHere}: use {entity.${CUSTOMER_KEY}${rest}${filter}}, the ${DOMAIN_LABELS[root].one} of the ${domain}.`;
  if (!isDomain(domain)) return NO_RECORD[domain]?.(token) ?? `${notHere}: a ${domain} run has no record.`;
  return `${notHere}: this flow runs for ${aDomain(domain)}, whose fields are {entity.…}.`;
}

function checkPath(found: FoundToken, ctx: TokenCheckContext): string | null {
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
      if (!ctx.upstreamNodeIds.has(nodeId))
        return `${token} refers to step '${nodeId}', which does not run before this step.`;
      return stepReadProblem(token, nodeId, path.slice(1), ctx.upstreamOutputs?.get(nodeId));
    }
    case "entity": {
      const { domain } = ctx;
      if (domain === null) return null;
      if (!isDomain(domain))
        return NO_RECORD[domain]?.(token) ?? `A ${domain} run has no record for ${token}.`;
      return checkEntityPath(token, domain, path);
    }
    default:
      if (isDomain(root)) return misplacedRecord(found, root, ctx.domain);
      return `${token} is not a token Tillflow knows; a token starts with ${TOKEN_ROOTS.slice(0, -1).join(", ")} or ${TOKEN_ROOTS.at(-1)}.`;
  }
}

function checkFilter(found: FoundToken): string | null {
  const { token, filter } = found;
  if (filter === null || isTokenFilter(filter)) return null;
  if (filter === "") return `${token} has nothing after '|': use ${filterChoices()}.`;
  return `Unknown filter '${filter}' in ${token}: use ${filterChoices()}.`;
}

/** The first problem with one token, or null. */
export function checkToken(found: FoundToken, ctx: TokenCheckContext): string | null {
  return checkPath(found, ctx) ?? checkFilter(found);
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
