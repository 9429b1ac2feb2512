import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { NodeConfig } from "../node-config";

function render(params: Record<string, unknown>): string {
  return renderToStaticMarkup(
    <NodeConfig
      node={{ id: "in", type: "auto.trigger.webhook", params }}
      triggerDomain="webhook"
      otherSteps={[]}
      readOnly={false}
      onParamsChange={() => {}}
    />,
  );
}

describe("a webhook trigger's settings show how to call it", () => {
  it("signed: the URL, the header and both examples", () => {
    const html = render({ token: "tok_abcdefghijklmnop", secret: "s3cret" });
    expect(html).toContain("Calling this webhook");
    expect(html).toContain("/api/hooks/tok_abcdefghijklmnop");
    expect(html).toContain("X-Tillflow-Signature: t=&lt;unix seconds&gt;,v1=");
    expect(html).toContain("openssl dgst -sha256 -hmac");
    expect(html).toContain("createHmac(&quot;sha256&quot;, process.env.TILLFLOW_SECRET)");
  });

  it("signed with a credential: the same header and examples", () => {
    const html = render({
      token: "tok_abcdefghijklmnop",
      secretCredentialId: "22222222-2222-4222-8222-222222222222",
    });
    expect(html).toContain("X-Tillflow-Signature: t=&lt;unix seconds&gt;,v1=");
  });

  it("unsigned: says anyone with the link can start runs", () => {
    const html = render({ token: "tok_abcdefghijklmnop" });
    expect(html).toContain("Unsigned: anyone with this link can start runs of this flow.");
    expect(html).not.toContain("X-Tillflow-Signature");
  });

  it("new (signed, no secret yet): asks for a secret", () => {
    const html = render({ token: "tok_abcdefghijklmnop", signed: true });
    expect(html).toContain("Choose a signing secret above: this webhook accepts only signed requests");
  });

  it("a viewer's graph (no token): says the address is for editors, and shows none", () => {
    const html = render({ signed: true });
    expect(html).toContain("This webhook&#x27;s address is shown to editors and admins only.");
    expect(html).not.toContain("/api/hooks/");
  });

  it("other steps show nothing of the kind", () => {
    const html = renderToStaticMarkup(
      <NodeConfig
        node={{ id: "t", type: "auto.action.add_tag", params: { tag: "x" } }}
        triggerDomain="order"
        otherSteps={[]}
        readOnly={false}
        onParamsChange={() => {}}
      />,
    );
    expect(html).not.toContain("Calling this webhook");
  });
});
