import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { NodeConfig } from "./node-config";

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

  it("unsigned: says anyone with the URL can call it", () => {
    const html = render({ token: "tok_abcdefghijklmnop" });
    expect(html).toContain("Anyone with this URL can start the flow. Choose a signing secret");
    expect(html).not.toContain("X-Tillflow-Signature");
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
