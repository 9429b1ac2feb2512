import { describe, expect, test } from "vitest";
import {
  initialPublishForm,
  mayPublish,
  NAME_MISSING,
  publishFormReducer,
  publishLead,
  publishName,
  SAVE_FAILED,
  type PublishFormAction,
  type PublishFormState,
} from "./publish-form-state";

const run = (state: PublishFormState, ...actions: PublishFormAction[]) =>
  actions.reduce(publishFormReducer, state);

describe("the publish form's state", () => {
  test("a named draft opens with no name field, an empty note, the impact being read", () => {
    const state = initialPublishForm("Thank first-time buyers");
    expect(state).toEqual({
      askName: false,
      givenName: "",
      nameError: null,
      note: "",
      impact: { state: "loading" },
      failure: null,
      done: null,
    });
    expect(mayPublish(state)).toBe(true);
    expect(publishName(state, "Thank first-time buyers")).toEqual({
      name: "Thank first-time buyers",
      called: "'Thank first-time buyers'",
    });
  });

  test("an unnamed draft asks for a name, and Publish stops until one is typed", () => {
    const state = initialPublishForm("Untitled automation");
    expect(state.askName).toBe(true);
    // Until a name is typed the placeholder is not said back.
    expect(publishName(state, "Untitled automation").called).toBe("this automation");

    const stopped = run(state, { type: "submit" });
    expect(mayPublish(stopped)).toBe(false);
    expect(stopped.nameError).toBe(NAME_MISSING);

    // Typing clears the sentence; the name typed is the one said back.
    const named = run(stopped, { type: "name", value: "  Win back  " });
    expect(named.nameError).toBeNull();
    expect(mayPublish(named)).toBe(true);
    expect(publishName(named, "Untitled automation")).toEqual({ name: "Win back", called: "'Win back'" });
  });

  test("pressing Publish again clears the last failure", () => {
    const failed = run(initialPublishForm("A"), { type: "save-failed" });
    expect(failed.failure).toEqual(SAVE_FAILED);
    expect(run(failed, { type: "submit" }).failure).toBeNull();
  });

  test("a refusal with ready issues lists them under one sentence; another shows the server's words", () => {
    const issues = run(initialPublishForm("A"), {
      type: "publish-failed",
      version: 3,
      error: "Step 'Send email' needs a subject; Step 'Wait' needs a duration",
      issues: ["Step 'Send email' needs a subject", "Step 'Wait' needs a duration"],
    });
    expect(issues.failure).toEqual({
      title: "Version 3 was not published",
      text: "Fix these 2 things first:",
      issues: ["Step 'Send email' needs a subject", "Step 'Wait' needs a duration"],
    });
    const one = run(initialPublishForm("A"), {
      type: "publish-failed",
      version: 3,
      error: "x",
      issues: ["Step 'Wait' needs a duration"],
    });
    expect(one.failure?.text).toBe("Fix this first:");
    const plain = run(initialPublishForm("A"), {
      type: "publish-failed",
      version: 2,
      error: "Only editors can publish.",
      issues: [],
    });
    expect(plain.failure).toEqual({
      title: "Version 2 was not published",
      text: "Only editors can publish.",
      issues: [],
    });
  });

  test("the note, the impact and the server's yes are kept as given", () => {
    const state = run(
      initialPublishForm("A"),
      { type: "note", value: "Shorter wait" },
      { type: "impact", impact: { state: "ready", message: "2 runs are waiting.", waitingRuns: 2 } },
      { type: "published", done: { version: 4, published: true, message: "They continue on version 4." } },
    );
    expect(state).toMatchObject({
      note: "Shorter wait",
      impact: { state: "ready", waitingRuns: 2 },
      done: { version: 4, published: true },
    });
  });

  test("the first line says what publishing does in each status", () => {
    expect(publishLead("active", "'A'", 2)).toBe("'A' switches from version 2 to version 3.");
    expect(publishLead("paused", "this automation", 2)).toBe(
      "This automation is paused; publishing turns it on again with version 3.",
    );
    expect(publishLead("draft", "this automation", 0)).toBe(
      "Publishing turns this automation on: new events start runs.",
    );
  });
});
