import { bareHost, hostAllowed, typedHost, whereItMayGo } from "@/lib/credentials/hosts";
import { excerpt, text } from "../sentences";
import type { FlowReview, ReviewedStep } from "../types";

/** The ready issue of a step whose typed URL's host its credential may not be sent to, if any. */
export function credentialHostIssues({ node }: ReviewedStep, { facts }: FlowReview): string[] {
  if (!facts.credentialHosts) return [];
  const auth = asRecord(node.params.auth);
  const credential =
    typeof auth.credentialId === "string" ? facts.credentialHosts[auth.credentialId] : undefined;
  const host = typedHost(node.params.url);
  if (!credential || host === null || hostAllowed(credential.allowedHosts, host)) return [];
  return [
    `This step would send the credential '${credential.name}' to ${bareHost(host)}, but ${whereItMayGo(credential.allowedHosts)}: choose another credential, or ask an admin to add the host in Settings → Credentials.`,
  ];
}

/** What the request would be, as the executor prepared it: method, address, headers, body. */
export function describeRequest(request: Record<string, unknown>): string[] {
  const url = text(request.url);
  const headers = Object.entries((request.headers as Record<string, unknown> | undefined) ?? {});
  const carries = request.credentialId
    ? "its credential's headers and an Idempotency-Key header"
    : "an Idempotency-Key header";
  const detail = [`Would send ${text(request.method)} ${url}, with ${carries}.`];
  if (headers.length > 0) detail.push(`Headers: ${headers.map(([k, v]) => `${k}: ${text(v)}`).join(", ")}`);
  if (request.body !== null && request.body !== undefined) detail.push(`Body: ${excerpt(request.body, 300)}`);
  return detail;
}

function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}
