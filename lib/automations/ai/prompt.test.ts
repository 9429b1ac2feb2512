import { describe, expect, test } from "vitest";
import { registry } from "@/lib/automations/nodes/registry";
import type { NodeDefinition } from "@/lib/automations/nodes/types";
import { retryMessage, systemPrompt } from "./prompt";

describe("the system prompt", () => {
  const prompt = systemPrompt({ timeZone: "Europe/Amsterdam", now: new Date("2026-03-10T23:30:00Z") });

  test("names every node type a merchant may use, with its label, description and params", () => {
    // Not platform jobs, nor a split: its exits are its branches, which then/else cannot say (spec.ts).
    const usable = (d: NodeDefinition) => !d.platform && d.handles.outFrom === undefined;
    for (const definition of registry.all().filter(usable)) {
      expect(prompt).toContain(`\`${definition.type}\` — ${definition.label}: ${definition.description}`);
    }
    for (const definition of registry.all().filter((d) => !usable(d)))
      expect(prompt).not.toContain(definition.type);
    // Params as JSON Schema: the wait's unit choices, the code step's source.
    expect(prompt).toContain('"enum":["minutes","hours","days"]');
    expect(prompt).toMatch(/`auto\.action\.code`[\s\S]*?"source"/);
  });

  test("has the shop's time zone and today's date there, the caveats and the tokens per trigger", () => {
    expect(prompt).toContain("The shop's time zone is Europe/Amsterdam; today is Wednesday 2026-03-11.");
    expect(prompt).toContain("re-reads the record when it wakes");
    expect(prompt).toContain("pins the record's status to the status the event fired for");
    expect(prompt).toContain(
      '{ "kind": "wait_for_event", "params": object, "received"?: Step[], "timed_out"?: Step[] }',
    );
    expect(prompt).toContain('"Unless X happens within N days" is a wait for an event');
    expect(prompt).toMatch(/`auto\.trigger\.order_paid`[^\n]*\{entity\.total \| money\}/);
    expect(prompt).toMatch(/`auto\.trigger\.webhook`[^\n]*\{event\.payload\.<field>\}/);
  });

  test("the retry message lists the ready issues as sentences", () => {
    expect(retryMessage([{ nodeId: "wait_1", message: "A wait can be at most 30 days." }])).toContain(
      "- wait_1: A wait can be at most 30 days.",
    );
  });
});
