import "server-only";
import crypto from "node:crypto";
import { derivedKey } from "@/lib/credentials/secret-box";

/**
 * Unsubscribe tokens: `<shop id>.<customer id, base64url>.<signature>`, the signature an
 * HMAC-SHA256 (cut to 128 bits) under a key derived from `TILLFLOW_SECRET_KEY` for this use
 * alone. The shop and the customer are both signed, so a token names one customer of one shop:
 * changing either part makes it a forgery. No expiry: RFC 8058 links must keep working as long
 * as the email sits in an inbox.
 */
const PURPOSE = "unsubscribe links v1";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function signature(tenantId: string, customerId: string): Buffer {
  return crypto
    .createHmac("sha256", derivedKey(PURPOSE))
    .update(`${tenantId}\n${customerId}`)
    .digest()
    .subarray(0, 16);
}

export function unsubscribeToken(tenantId: string, customerId: string): string {
  return [
    tenantId,
    Buffer.from(customerId, "utf8").toString("base64url"),
    signature(tenantId, customerId).toString("base64url"),
  ].join(".");
}

/** The shop and customer a token names, or null for anything not signed by us (never throws). */
export function readUnsubscribeToken(token: unknown): { tenantId: string; customerId: string } | null {
  if (typeof token !== "string" || token.length > 600) return null;
  const parts = token.split(".");
  if (parts.length !== 3) return null;
  const [tenantId, encoded, mac] = parts as [string, string, string];
  if (!UUID.test(tenantId) || !/^[A-Za-z0-9_-]{1,500}$/.test(encoded) || !/^[A-Za-z0-9_-]{22}$/.test(mac))
    return null;
  const customerId = Buffer.from(encoded, "base64url").toString("utf8");
  if (!customerId || Buffer.from(customerId, "utf8").toString("base64url") !== encoded) return null;
  const given = Buffer.from(mac, "base64url");
  const expected = signature(tenantId, customerId);
  return given.length === expected.length && crypto.timingSafeEqual(given, expected)
    ? { tenantId, customerId }
    : null;
}

/** The path of a customer's unsubscribe page (GET: the page; POST: one-click, RFC 8058). */
export function unsubscribePath(token: string): string {
  return `/unsubscribe/${token}`;
}
