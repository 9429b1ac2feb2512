import { execFileSync } from "node:child_process";
import { describe, expect, test } from "vitest";
import { signWebhook } from "@/lib/automations/webhooks/signature";
import { webhookExamples } from "./webhook-examples";

describe("webhookExamples", () => {
  const signed = webhookExamples("https://shop.example", "tok_123", true);

  test("the URL is the page's origin and the hook's token", () => {
    expect(signed.url).toBe("https://shop.example/api/hooks/tok_123");
    expect(signed.curl).toContain("curl -X POST 'https://shop.example/api/hooks/tok_123'");
    expect(signed.node).toContain('await fetch("https://shop.example/api/hooks/tok_123"');
  });

  test("signed examples send X-Tillflow-Signature and read the secret from the environment", () => {
    expect(signed.curl).toContain('-H "X-Tillflow-Signature: t=$T,v1=$SIG"');
    expect(signed.node).toContain('"x-tillflow-signature": `t=${t},v1=${v1}`');
    expect(signed.curl + signed.node).not.toMatch(/whsec|secret-value/);
  });

  test("the curl example's signature is the one Tillflow checks", () => {
    // Run the example's signing lines in a shell with a fixed t, and compare with signWebhook.
    const lines = signed.curl.split("\n");
    const script = [lines[0], "T=1700000000", lines[2], 'printf %s "$SIG"'].join("\n");
    const sig = execFileSync("sh", ["-c", script], {
      env: { ...process.env, TILLFLOW_SECRET: "s3cret" },
    }).toString();
    expect(`t=1700000000,v1=${sig}`).toBe(
      signWebhook("s3cret", '{"source":"erp","orderId":"1001"}', 1700000000),
    );
  });

  test("without a secret, the examples send no signature", () => {
    const open = webhookExamples("http://localhost:3000", "tok_9", false);
    expect(open.curl).not.toContain("Signature");
    expect(open.node).not.toContain("signature");
  });
});
