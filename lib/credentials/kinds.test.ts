import { describe, expect, it } from "vitest";
import { valueProblem } from "./kinds";

describe("valueProblem for a Slack incoming webhook", () => {
  it("takes any https URL", () => {
    expect(valueProblem("slack_webhook", "https://hooks.slack.com/services/T0/B0/abc")).toBeNull();
    expect(valueProblem("slack_webhook", " https://hooks.slack-gov.com/services/T0/B0/abc ")).toBeNull();
    expect(valueProblem("slack_webhook", "https://chat.example.com/hooks/1")).toBeNull();
  });

  it("takes plain http only where the server's rules allow its host", () => {
    expect(valueProblem("slack_webhook", "http://127.0.0.1:8080/hook")).toBe(
      "The webhook URL must start with https:// (Slack's always does).",
    );
    const rules = { allowsHttp: (url: URL) => url.hostname === "127.0.0.1" };
    expect(valueProblem("slack_webhook", "http://127.0.0.1:8080/hook", rules)).toBeNull();
    expect(valueProblem("slack_webhook", "http://hooks.example.com/hook", rules)).toBe(
      "The webhook URL must start with https:// (Slack's always does).",
    );
  });

  it("says in plain words what to paste when the value is not a URL", () => {
    const hint = "Paste the incoming webhook URL Slack gave you (https://hooks.slack.com/…).";
    expect(valueProblem("slack_webhook", "T0/B0/abc")).toBe(hint);
    expect(valueProblem("slack_webhook", "hooks.slack.com/services/x")).toBe(hint);
    expect(valueProblem("slack_webhook", "ftp://hooks.slack.com/x")).toBe(hint);
    expect(valueProblem("slack_webhook", "https://hooks.slack.com/a b")).toBe(hint);
    expect(valueProblem("slack_webhook", "")).toBe("Enter the secret's value.");
  });
});
