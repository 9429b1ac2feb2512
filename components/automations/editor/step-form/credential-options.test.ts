import { describe, expect, it } from "vitest";
import { credentialLabel, optionsFor, secretHeadersNote, type CredentialOption } from "./credential-options";
import { stepForm } from "./registry";

const http = stepForm("auto.action.http_request")!.credential!;
const webhook = stepForm("auto.trigger.webhook")!.credential!;
const slack = stepForm("auto.action.slack")!.credential!;

const credentials: CredentialOption[] = [
  { id: "c1", name: "Warehouse API", kind: "bearer", last4: "1234" },
  { id: "c2", name: "Hook secret", kind: "webhook_secret", last4: "9999" },
  { id: "c3", name: "Stock feed", kind: "http_header", last4: "4321" },
  { id: "c4", name: "Ops channel", kind: "slack_webhook", last4: "abcd" },
];

describe("credential slots", () => {
  it("an HTTP step offers header, bearer and basic credentials, labelled with kind and last 4", () => {
    expect(optionsFor(http, credentials).map(credentialLabel)).toEqual([
      "Warehouse API (Bearer token, …1234)",
      "Stock feed (Header, …4321)",
    ]);
  });

  it("a webhook trigger offers signing secrets only", () => {
    expect(optionsFor(webhook, credentials).map((c) => c.id)).toEqual(["c2"]);
  });

  it("Post to Slack offers Slack webhooks only, and always keeps its credentialId", () => {
    expect(optionsFor(slack, credentials).map(credentialLabel)).toEqual([
      "Ops channel (Slack incoming webhook, …abcd)",
    ]);
    expect(slack.required).toBe(true);
    const params = { credentialId: "", text: "Hi" };
    expect(slack.write(params, "c4")).toEqual({ credentialId: "c4", text: "Hi" });
    expect(slack.read(slack.write(params, "c4"))).toBe("c4");
    expect(slack.write(params, "")).toEqual(params);
  });

  it("choosing writes auth: {credentialId}; None removes it and keeps the rest", () => {
    const params = { url: "https://x.test", method: "POST" };
    const chosen = http.write(params, "c1");
    expect(chosen).toEqual({ ...params, auth: { credentialId: "c1" } });
    expect(http.read(chosen)).toBe("c1");
    expect(http.write(chosen, "")).toEqual(params);
    expect(http.read(params)).toBe("");
  });

  it("a webhook's chosen secret replaces a plain one; None removes both", () => {
    const params = { token: "tok_abcdefghijklmnop", secret: "plain" };
    expect(webhook.write(params, "c2")).toEqual({ token: params.token, secretCredentialId: "c2" });
    expect(webhook.write({ token: params.token, secretCredentialId: "c2" }, "")).toEqual({
      token: params.token,
    });
  });
});

describe("secretHeadersNote", () => {
  it("names a secret-looking header with a plain value", () => {
    expect(secretHeadersNote({ headers: { Authorization: "Bearer abc", "X-Shop": "demo" } })).toBe(
      "Authorization: this header will be stored as a credential when you save.",
    );
    expect(secretHeadersNote({ headers: { Authorization: "Bearer abc", "X-Api-Key": "k" } })).toBe(
      "Authorization, X-Api-Key: these headers will be stored as a credential when you save.",
    );
  });

  it("says nothing of tokens, empty values or ordinary headers", () => {
    expect(secretHeadersNote({ headers: { Authorization: "Bearer {event.payload.token}" } })).toBeNull();
    expect(secretHeadersNote({ headers: { "X-Api-Key": " " } })).toBeNull();
    expect(secretHeadersNote({ headers: { "X-Shop": "demo" } })).toBeNull();
    expect(secretHeadersNote({})).toBeNull();
  });

  it("warns instead when the step already sends a credential, which the save would refuse", () => {
    expect(
      secretHeadersNote({ headers: { Authorization: "Bearer abc" }, auth: { credentialId: "c1" } }),
    ).toContain("cannot be saved as well");
  });
});
