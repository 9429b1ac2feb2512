import { describe, expect, test } from "vitest";
import { alertFormReducer, alertInput, initialAlertForm, type AlertFormRule } from "./state";

const slack = [{ id: "11111111-1111-4111-8111-111111111111" }];

describe("the alert form's state", () => {
  test("a new rule starts as failed runs, about every automation, by email, on", () => {
    const state = initialAlertForm(undefined, slack);
    expect(alertInput(state)).toEqual({
      ok: true,
      input: {
        kind: "failed_runs",
        automationId: null,
        channel: { type: "email" },
        params: {},
        enabled: true,
      },
    });
    // The first Slack webhook is chosen in advance, should the admin switch to Slack.
    expect(state.credentialId).toBe(slack[0]!.id);
  });

  test("a stored rule opens with its own values; its webhook secret is never in the form", () => {
    const rule: AlertFormRule = {
      id: "r1",
      kind: "silence",
      automationId: "a1",
      params: { hours: 6 },
      enabled: false,
      channel: { type: "webhook", url: "https://example.com/hook" },
    };
    const state = initialAlertForm(rule, slack);
    expect(state).toMatchObject({
      kind: "silence",
      param: "6",
      automationId: "a1",
      enabled: false,
      secret: "",
    });
    expect(alertInput(state)).toEqual({
      ok: true,
      input: {
        kind: "silence",
        automationId: "a1",
        channel: { type: "webhook", url: "https://example.com/hook" },
        params: { hours: 6 },
        enabled: false,
      },
    });
  });

  test("choosing another kind drops the number typed for the last one", () => {
    let state = initialAlertForm(undefined, slack);
    state = alertFormReducer(state, { type: "kind", kind: "silence" });
    state = alertFormReducer(state, { type: "field", field: "param", value: "12" });
    state = alertFormReducer(state, { type: "kind", kind: "overdue_waits" });
    expect(state.param).toBe("");
    expect(alertInput(state)).toMatchObject({ ok: true, input: { kind: "overdue_waits", params: {} } });
  });

  test("a number that is not a whole number of at least 1 is refused in the field's words", () => {
    let state = alertFormReducer(initialAlertForm(undefined, slack), { type: "kind", kind: "storm" });
    for (const typed of ["0", "2.5", "many", "-3"]) {
      state = alertFormReducer(state, { type: "field", field: "param", value: typed });
      expect(alertInput(state)).toEqual({
        ok: false,
        error: "Runs in an hour that always count as a storm must be a whole number of at least 1.",
      });
    }
  });

  test("Slack sends the channel only when one is typed; a webhook sends its secret only when typed", () => {
    let state = alertFormReducer(initialAlertForm(undefined, slack), {
      type: "channel",
      channelType: "slack",
    });
    expect(alertInput(state)).toMatchObject({
      input: { channel: { type: "slack", credentialId: slack[0]!.id } },
    });
    state = alertFormReducer(state, { type: "field", field: "slackChannel", value: "  #ops " });
    expect(alertInput(state)).toMatchObject({
      input: { channel: { type: "slack", credentialId: slack[0]!.id, channel: "#ops" } },
    });
    state = alertFormReducer(state, { type: "channel", channelType: "webhook" });
    state = alertFormReducer(state, { type: "field", field: "url", value: "https://example.com/a" });
    expect(alertInput(state)).toMatchObject({
      input: { channel: { type: "webhook", url: "https://example.com/a" } },
    });
    state = alertFormReducer(state, { type: "field", field: "secret", value: "whsec_abc" });
    expect(alertInput(state)).toMatchObject({
      input: { channel: { type: "webhook", url: "https://example.com/a", secret: "whsec_abc" } },
    });
  });

  test("once stored, the secret leaves the form; a new attempt clears the last message", () => {
    let state = alertFormReducer(initialAlertForm(undefined, slack), {
      type: "field",
      field: "secret",
      value: "s",
    });
    state = alertFormReducer(state, { type: "failed", error: "No." });
    expect(state.error).toBe("No.");
    state = alertFormReducer(state, { type: "submitting" });
    expect(state.error).toBeNull();
    state = alertFormReducer(state, { type: "stored", saved: "Saved." });
    expect(state).toMatchObject({ secret: "", saved: "Saved.", error: null });
  });
});
