import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { CredentialOption } from "./credential-options";
import { NodeConfig } from "./node-config";

const credentials: CredentialOption[] = [
  {
    id: "11111111-1111-4111-8111-111111111111",
    name: "Warehouse API",
    kind: "bearer",
    last4: "1234",
    allowedHosts: ["*.warehouse.test"],
  },
  { id: "22222222-2222-4222-8222-222222222222", name: "Hook secret", kind: "webhook_secret", last4: "9999" },
  { id: "44444444-4444-4444-8444-444444444444", name: "Ops channel", kind: "slack_webhook", last4: "abcd" },
];

function render(type: string, params: Record<string, unknown>, shop = credentials): string {
  return renderToStaticMarkup(
    <NodeConfig
      node={{ id: "n1", type, params }}
      triggerDomain={type === "auto.trigger.webhook" ? "webhook" : "order"}
      otherSteps={[]}
      credentials={shop}
      readOnly={false}
      onParamsChange={() => {}}
    />,
  );
}

/** The `<select>` labelled `label`, with its options. */
function select(html: string, label: string): string {
  const id = new RegExp(`<label[^>]*for="([^"]+)"[^>]*>${label}</label>`).exec(html)?.[1];
  expect(id, `a control labelled ${label}`).toBeDefined();
  return new RegExp(`<select[^>]*id="${id}"[^>]*>.*?</select>`).exec(html)?.[0] ?? "";
}

const options = (html: string) => [...html.matchAll(/<option[^>]*>([^<]*)<\/option>/g)].map((m) => m[1]);

describe("the credential picker", () => {
  it("Send HTTP request: None and the shop's HTTP credentials by name, kind and last 4; no raw auth field", () => {
    const html = render("auto.action.http_request", { url: "https://x.test", method: "POST" });
    expect(options(select(html, "Credential"))).toEqual(["None", "Warehouse API (Bearer token, …1234)"]);
    expect(select(html, "Credential")).toContain('<option value="" selected="">None</option>');
    // A credential made from here proposes the step's host as its first allowed host.
    expect(html).toContain('href="/settings/credentials?host=x.test"');
    expect(html).toContain(">Manage credentials</a>");
    expect(html).not.toMatch(/<label[^>]*>Auth</);
  });

  it("Send HTTP request: says, before any run, that the chosen credential may not go to the step's host", () => {
    const auth = { credentialId: "11111111-1111-4111-8111-111111111111" };
    const elsewhere = render("auto.action.http_request", { url: "https://x.test/a", method: "POST", auth });
    expect(elsewhere).toContain(
      "Refused to send the credential &#x27;Warehouse API&#x27; to x.test: it may only be sent to *.warehouse.test;",
    );
    const allowed = render("auto.action.http_request", {
      url: "https://eu.warehouse.test/a",
      method: "POST",
      auth,
    });
    expect(allowed).not.toContain("Refused to send");
    // A host filled in per run is only known then: the run says it.
    const token = render("auto.action.http_request", { url: "{entity.callback}", method: "POST", auth });
    expect(token).not.toContain("Refused to send");
  });

  it("Post to Slack: a Slack webhook must be chosen (no None), its message under it; the Message is a textarea", () => {
    const html = render("auto.action.slack", { credentialId: "", text: "" });
    expect(options(select(html, "Slack webhook"))).toEqual([
      "Choose…",
      "Ops channel (Slack incoming webhook, …abcd)",
    ]);
    expect(html).toContain("Slack webhook is required: choose the channel&#x27;s incoming webhook.");
    expect(html).toMatch(/<label[^>]*>Message</);
    expect(html).toMatch(/<textarea[^>]*data-param="text"|data-param="text"[^>]*>[\s\S]*?<textarea/);
    expect(html).not.toMatch(/<label[^>]*>Credential id</);
    const chosen = render("auto.action.slack", { credentialId: credentials[2]!.id, text: "Paid" });
    expect(select(chosen, "Slack webhook")).toContain(
      `<option value="${credentials[2]!.id}" selected="">Ops channel (Slack incoming webhook, …abcd)</option>`,
    );
    expect(chosen).not.toContain("is required");
  });

  it("Send HTTP request: the chosen credential is selected", () => {
    const html = render("auto.action.http_request", {
      url: "https://x.test",
      auth: { credentialId: credentials[0]!.id },
    });
    expect(select(html, "Credential")).toContain(
      `<option value="${credentials[0]!.id}" selected="">Warehouse API (Bearer token, …1234)</option>`,
    );
  });

  it("Send HTTP request: a credential the list does not have stays chosen, said so", () => {
    const html = render("auto.action.http_request", {
      url: "https://x.test",
      auth: { credentialId: "33333333-3333-4333-8333-333333333333" },
    });
    expect(options(select(html, "Credential"))).toContain("A credential not in this list");
  });

  it("Send HTTP request: a secret-looking header with a plain value is said to become a credential", () => {
    const html = render("auto.action.http_request", {
      url: "https://x.test",
      headers: { Authorization: "Bearer abc", "X-Shop": "demo" },
    });
    expect(html).toContain("Authorization: this header will be stored as a credential when you save.");
    const plain = render("auto.action.http_request", {
      url: "https://x.test",
      headers: { "X-Shop": "demo" },
    });
    expect(plain).not.toContain("will be stored as a credential");
  });

  it("Webhook received: a signing secret picker over webhook secrets only, and no plain secret field", () => {
    const html = render("auto.trigger.webhook", {
      token: "tok_abcdefghijklmnop",
      secretCredentialId: credentials[1]!.id,
    });
    expect(options(select(html, "Signing secret"))).toEqual([
      "None",
      "Hook secret (Webhook signing secret, …9999)",
    ]);
    expect(html).toContain("X-Tillflow-Signature: t=&lt;unix seconds&gt;");
    expect(html).not.toMatch(/<input[^>]*type="password"/);
  });

  it("Webhook received: a plain secret is not shown, and the save is said to store it", () => {
    const html = render("auto.trigger.webhook", { token: "tok_abcdefghijklmnop", secret: "s3cret-value" });
    expect(html).not.toContain("s3cret-value");
    expect(html).toContain("This trigger&#x27;s secret will be stored as a credential when you save.");
    expect(html.match(/<label[^>]*>Signing secret<\/label>/g)).toHaveLength(1);
  });

  it("with no credential of the kind, it says where to add one", () => {
    const html = render("auto.trigger.webhook", { token: "tok_abcdefghijklmnop" }, []);
    expect(options(select(html, "Signing secret"))).toEqual(["None"]);
    expect(html).toContain("an admin adds one in Settings → Credentials");
  });

  it("read-only: the picker is disabled with the rest of the form", () => {
    const html = renderToStaticMarkup(
      <NodeConfig
        node={{ id: "n1", type: "auto.action.http_request", params: { url: "https://x.test" } }}
        triggerDomain="order"
        otherSteps={[]}
        credentials={credentials}
        readOnly
        onParamsChange={() => {}}
      />,
    );
    expect(select(html, "Credential")).toContain('disabled=""');
  });
});
