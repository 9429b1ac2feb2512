import { describe, expect, it } from "vitest";
import { registry } from "@/lib/automations/nodes/registry";
import {
  retryErrors,
  retryInputs,
  retrySentence,
  retryValue,
  takesRetry,
  type RetryInputs,
} from "./retry-form";

const on: RetryInputs = { on: true, attempts: "4", backoff: "fixed", initialSeconds: "60" };

describe("takesRetry", () => {
  it("is the HTTP action, the AI step, Post to Slack and the store steps, and no step without a retry param", () => {
    const taking = registry
      .all()
      .filter(takesRetry)
      .map((d) => d.type);
    expect(taking).toEqual([
      "auto.action.http_request",
      "auto.action.ai",
      "auto.action.slack",
      "auto.action.store_add_tags",
      "auto.action.store_remove_tags",
      "auto.action.store_add_order_note",
      "auto.action.store_hold_fulfillment",
      "auto.action.store_release_hold",
      "auto.action.store_set_metafield",
    ]);
  });
});

describe("retryInputs", () => {
  it("shows the default when retry is left out", () => {
    expect(retryInputs(undefined)).toEqual({
      on: true,
      attempts: "3",
      backoff: "exponential",
      initialSeconds: "30",
    });
  });

  it("shows a stored retry as typed text", () => {
    expect(retryInputs({ attempts: 4, backoff: "fixed", initialSeconds: 60 })).toEqual(on);
  });

  it("reads attempts 1 as the switch off, keeping 3 for when it is switched back on", () => {
    expect(retryInputs({ attempts: 1, backoff: "fixed", initialSeconds: 5 })).toEqual({
      on: false,
      attempts: "3",
      backoff: "fixed",
      initialSeconds: "5",
    });
  });

  it("falls back to the default's inputs for a value of the wrong shape", () => {
    expect(retryInputs("often")).toEqual(retryInputs(undefined));
  });
});

describe("retryValue", () => {
  it("parses the numbers", () => {
    expect(retryValue(on)).toEqual({ attempts: 4, backoff: "fixed", initialSeconds: 60 });
  });

  it("saves attempts 1 when switched off", () => {
    expect(retryValue({ ...on, on: false })).toEqual({ attempts: 1, backoff: "fixed", initialSeconds: 60 });
  });

  it("leaves an empty number out and keeps unreadable text, so the schema says what is wrong", () => {
    expect(retryValue({ ...on, attempts: " ", initialSeconds: "1e" })).toEqual({
      backoff: "fixed",
      initialSeconds: "1e",
    });
  });

  it("round-trips through retryInputs", () => {
    expect(retryInputs(retryValue(on))).toEqual(on);
  });
});

describe("retryErrors", () => {
  it("has none for valid inputs, switched on or off", () => {
    expect(retryErrors(on)).toEqual({});
    expect(retryErrors({ ...on, on: false, attempts: "" })).toEqual({});
  });

  it("names each field in a sentence, with the schema's own limits", () => {
    expect(retryErrors({ ...on, attempts: "11", initialSeconds: "0" })).toEqual({
      attempts: "Attempts must be at most 10.",
      initialSeconds: "First wait must be at least 1.",
    });
    expect(retryErrors({ ...on, attempts: "", initialSeconds: "2.5" })).toEqual({
      attempts: "Attempts is required.",
      initialSeconds: "First wait must be a whole number.",
    });
    expect(retryErrors({ ...on, initialSeconds: "soon" }).initialSeconds).toBe(
      "First wait must be a number.",
    );
  });

  it("asks for the switch rather than 1 attempt", () => {
    expect(retryErrors({ ...on, attempts: "1" })).toEqual({
      attempts: "Attempts must be at least 2; switch Retry off for no retries.",
    });
  });

  it("speaks of the backoff by its labels", () => {
    expect(retryErrors({ ...on, backoff: "linear" })).toEqual({
      backoff: "Wait between attempts must be Doubling or Same each time.",
    });
  });
});

describe("retrySentence", () => {
  it("describes the default, and says it is the default", () => {
    expect(retrySentence(undefined)).toEqual({
      text: "On failure: retry 2 times, waiting 30 s, then 1 min.",
      isDefault: true,
    });
  });

  it("describes a stored schedule with the engine's own backoff", () => {
    expect(retrySentence(retryValue(on))).toEqual({
      text: "On failure: retry 3 times, waiting 1 min, then 1 min, 1 min.",
      isDefault: false,
    });
    expect(retrySentence({ attempts: 3, backoff: "exponential", initialSeconds: 30 })?.isDefault).toBe(false);
    expect(retrySentence({ attempts: 1, backoff: "exponential", initialSeconds: 30 })?.text).toBe(
      "On failure: no retries.",
    );
  });

  it("is null while the value is invalid", () => {
    expect(retrySentence({ attempts: 20, backoff: "fixed", initialSeconds: 30 })).toBeNull();
    expect(retrySentence("often")).toBeNull();
  });
});
