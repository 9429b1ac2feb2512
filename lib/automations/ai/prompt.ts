import { z } from "zod";
import { tokensFor } from "@/lib/automations/review/tokens-for";
import { registry as defaultRegistry, type Registry } from "@/lib/automations/nodes/registry";
import type { NodeDefinition, TriggerDomain } from "@/lib/automations/nodes/types";
import { filterChoices } from "@/lib/automations/tokens/filters";
import type { ReadyIssue } from "@/lib/automations/review/validate";
import { flowSpecJsonSchema, specTypes } from "./spec";

/**
 * The system prompt of the AI builder, made from the registry (pure): every node type a merchant
 * may use with its label, description, params as JSON Schema and defaults; the `{token}`s each
 * trigger's runs offer; the caveats that change what a flow means (a wait re-reads the record, the
 * first leg pins the status); the FlowSpec the answer must be; and the shop's time zone and date.
 * Nothing here is a copied list of types: a new node type reaches the prompt by being registered.
 */

export interface PromptContext {
  /** The shop's IANA time zone. */
  timeZone: string;
  /** "Today" for the model; the caller's clock. */
  now: Date;
  registry?: Registry;
}

function paramsSchema(definition: NodeDefinition): string {
  const schema = z.toJSONSchema(definition.params, { io: "input", unrepresentable: "any" }) as Record<
    string,
    unknown
  >;
  delete schema.$schema;
  return JSON.stringify(schema);
}

function describe(definition: NodeDefinition): string {
  const lines = [`- \`${definition.type}\` — ${definition.label}: ${definition.description}`];
  if (definition.category === "trigger" && definition.entityDomain)
    lines.push(
      `  Runs are about: ${definition.entityDomain}${definition.event ? ` (event \`${definition.event}\`)` : ""}.`,
    );
  else if (definition.entityDomain) lines.push(`  Only under a ${definition.entityDomain} trigger.`);
  if (definition.handles.out.length > 1 || definition.handles.out[0] !== "out")
    lines.push(`  Branches: ${definition.handles.out.join(", ")}.`);
  lines.push(`  params (JSON Schema): ${paramsSchema(definition)}`);
  lines.push(`  defaults: ${JSON.stringify(definition.defaultParams())}`);
  if (definition.templated?.length) lines.push(`  {token}s allowed in: ${definition.templated.join(", ")}.`);
  return lines.join("\n");
}

/** The tokens each trigger domain's runs offer, as the editor's token picker lists them. */
function tokenSection(triggers: readonly NodeDefinition[]): string {
  const byDomain = new Map<TriggerDomain, string[]>();
  for (const trigger of triggers) {
    if (!trigger.entityDomain) continue;
    byDomain.set(trigger.entityDomain, [...(byDomain.get(trigger.entityDomain) ?? []), trigger.type]);
  }
  const lines: string[] = [];
  for (const [domain, types] of byDomain) {
    // An open token (`{event.payload.}`) is one the merchant finishes: shown with a placeholder.
    const tokens = tokensFor(domain, []).map((option) => option.token.replace(/\.\}$/, ".<field>}"));
    lines.push(`- ${types.map((t) => `\`${t}\``).join(", ")}: ${tokens.join(" ")}`);
  }
  return lines.join("\n");
}

function today(now: Date, timeZone: string): string {
  const iso = new Intl.DateTimeFormat("en-CA", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  }).format(now);
  const weekday = new Intl.DateTimeFormat("en-GB", { timeZone, weekday: "long" }).format(now);
  return `${weekday} ${iso}`;
}

export function systemPrompt({ timeZone, now, registry = defaultRegistry }: PromptContext): string {
  const types = specTypes(registry);
  const pick = (list: readonly string[]) =>
    list.map((type) => registry.get(type)).filter((d): d is NodeDefinition => d !== undefined);
  const triggers = pick(types.trigger);
  const section = (title: string, definitions: readonly NodeDefinition[]) =>
    `### ${title}\n${definitions.map(describe).join("\n")}`;

  return [
    `You build automations for Tillflow, a shop's admin. A merchant describes an automation in a sentence; you answer with ONE JSON object, a FlowSpec, and nothing else (no prose, no code fence).`,
    `The shop's time zone is ${timeZone}; today is ${today(now, timeZone)}.`,
    `## FlowSpec
{ "name": string, "trigger": { "type": string, "params"?: object }, "steps": Step[] }
Step is one of:
  { "kind": "action", "type": string, "params"?: object }
  { "kind": "wait", "type": string, "params": object }
  { "kind": "condition", "type": string, "params": object, "then": Step[], "else"?: Step[] }
  { "kind": "approval", "params": object, "approved"?: Step[], "rejected"?: Step[], "timed_out"?: Step[] }
  { "kind": "wait_for_event", "params": object, "received"?: Step[], "timed_out"?: Step[] }
Rules:
- A condition, an approval or a wait for an event ends its list: the steps after it go inside its branches, which continue the flow.
- "type" must be one of the types below for that kind of step; never invent one.
- Params follow each type's JSON Schema; a param left out takes the default shown.
- Steps get ids in order of appearance (depth first: then before else): the type's last word and a count, e.g. add_tag_1, code_1, wait_2. An earlier step's output is {steps.<id>.<field>}.
- Give the automation a short name that says what it does.
JSON Schema of the answer: ${JSON.stringify(flowSpecJsonSchema())}`,
    `## Node types`,
    section("Triggers (trigger.type)", triggers),
    section(`Conditions (kind "condition"; branches then = true, else = false)`, pick(types.condition)),
    section(`Actions (kind "action")`, pick(types.action)),
    section(`Waits (kind "wait")`, pick(types.wait)),
    section(
      `Approval (kind "approval"; no type; branches approved, rejected, timed_out)`,
      pick([types.approval]),
    ),
    section(
      `Wait for an event (kind "wait_for_event"; no type; branches received, timed_out)`,
      pick([types.waitForEvent]),
    ),
    `## Caveats
- A wait (or approval) re-reads the record when it wakes: the steps after it see the record as it is then, not as it was when the run started. To act only "if still unhandled", put a condition after the wait.
- The first leg (trigger up to the first wait) pins the record's status to the status the event fired for, so a condition on status right after the trigger sees that status even if the record has moved on.
- A wait is at most 30 days; use the unit minutes, hours or days. For "the next working day at 9:00" use a wait until.
- "Unless X happens within N days" is a wait for an event: event = X's event type (e.g. order.fulfilled), match {"kind":"same_record"} for an event about the run's record (needs a trigger with a record), or {"kind":"field","path":"payload.body.email","equals":"{entity.email}"} to match a field of the event (a webhook); timeoutHours = N × 24; the "else" steps go under timed_out, the steps for when it happens under received.
- Text params marked as accepting {token}s can use the tokens of the trigger's runs; filters: ${filterChoices()}. Values are escaped where they land (JSON-encoded in a JSON body, so write {"name": "{entity.name}"} or {"total": {entity.total}}; percent-encoded in a URL; HTML-escaped in an email body); | json, | url and | raw choose the encoding themselves.`,
    `## Tokens by trigger\n${tokenSection(triggers)}`,
  ].join("\n\n");
}

/** The follow-up after an answer that did not pass: its problems, one a line, and what to do. */
export function retryMessage(issues: readonly ReadyIssue[]): string {
  return [
    "That flow cannot be used as it is. Its problems:",
    ...issues.map((issue) => `- ${issue.nodeId ? `${issue.nodeId}: ` : ""}${issue.message}`),
    "Answer again with the whole corrected FlowSpec JSON object, and nothing else.",
  ].join("\n");
}
