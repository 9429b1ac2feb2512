/**
 * How another system calls a webhook trigger, as copyable examples (shown under the trigger's
 * settings). The secret is never written into them: they read it from `TILLFLOW_SECRET`, so an
 * example pasted into a ticket or a chat does not leak it.
 */
export interface WebhookExamples {
  url: string;
  curl: string;
  node: string;
}

const SAMPLE_BODY = '{"source":"erp","orderId":"1001"}';

export function webhookExamples(origin: string, token: string, signed: boolean): WebhookExamples {
  const url = `${origin}/api/hooks/${token}`;
  const curl = signed
    ? [
        `BODY='${SAMPLE_BODY}'`,
        "T=$(date +%s)",
        `SIG=$(printf '%s.%s' "$T" "$BODY" | openssl dgst -sha256 -hmac "$TILLFLOW_SECRET" -hex | sed 's/^.* //')`,
        `curl -X POST '${url}' -H 'content-type: application/json' \\`,
        `  -H "X-Tillflow-Signature: t=$T,v1=$SIG" -H 'Idempotency-Key: order-1001' -d "$BODY"`,
      ].join("\n")
    : [
        `curl -X POST '${url}' -H 'content-type: application/json' \\`,
        `  -H 'Idempotency-Key: order-1001' -d '${SAMPLE_BODY}'`,
      ].join("\n");
  const node = signed
    ? [
        'import crypto from "node:crypto";',
        "",
        `const body = JSON.stringify({ source: "erp", orderId: "1001" });`,
        "const t = Math.floor(Date.now() / 1000); // sign each delivery when you send it",
        "const v1 = crypto",
        '  .createHmac("sha256", process.env.TILLFLOW_SECRET)',
        "  .update(`${t}.${body}`)",
        '  .digest("hex");',
        `await fetch("${url}", {`,
        '  method: "POST",',
        "  headers: {",
        '    "content-type": "application/json",',
        '    "x-tillflow-signature": `t=${t},v1=${v1}`,',
        '    "idempotency-key": "order-1001",',
        "  },",
        "  body,",
        "});",
      ].join("\n")
    : [
        `await fetch("${url}", {`,
        '  method: "POST",',
        '  headers: { "content-type": "application/json", "idempotency-key": "order-1001" },',
        '  body: JSON.stringify({ source: "erp", orderId: "1001" }),',
        "});",
      ].join("\n");
  return { url, curl, node };
}
