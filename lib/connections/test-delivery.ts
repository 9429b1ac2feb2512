import "server-only";
import crypto from "node:crypto";
import { credentialSecret } from "@/lib/credentials/store";
import { AppError } from "@/lib/errors";
import type { Caller } from "@/lib/identity/caller";
import type { Platform } from "./platforms";
import { PLATFORM_HEADERS } from "./signature";
import { sampleDelivery } from "./sample";
import { signDelivery } from "./signature";
import { getConnection } from "./store";

/**
 * The test delivery as the platform would post it: the sample (marked as a test inside its body,
 * sample.ts), signed with the connection's secret, with the platform's headers.
 */
export function testDeliveryRequest(
  platform: Platform,
  secret: string,
  options: { runAutomations?: boolean } = {},
): { topic: string; raw: string; headers: Record<string, string> } {
  const { topic, body } = sampleDelivery(platform, new Date(), options);
  const raw = JSON.stringify(body);
  const names = PLATFORM_HEADERS[platform];
  const headers = {
    "content-type": "application/json",
    [names.topic]: topic,
    [names.signature]: signDelivery(secret, raw),
    [names.deliveryIds[0]!]: crypto.randomUUID(),
  };
  return { topic, raw, headers };
}

/**
 * "Send a test delivery": a sample order in the platform's shape, signed with the connection's
 * secret as the platform signs, posted to the connection's own URL — the real endpoint, so the
 * merchant sees what a delivery from their store will do (listed, applied). It is a test: the
 * marker inside the signed body keeps its automations from running unless `runAutomations`
 * ("Also run my automations"), and its order says it is a test.
 */
export async function sendTestDelivery(
  caller: Caller,
  id: string,
  options: { runAutomations?: boolean } = {},
): Promise<{ deliveryId: string; result: string; topic: string }> {
  const connection = await getConnection(caller.tenant.id, id);
  const secret = await credentialSecret(caller.tenant.id, connection.credential.id);
  if (!secret)
    throw new AppError(409, "conflict", "This connection's secret is missing; connect the store again.");
  const { topic, raw, headers } = testDeliveryRequest(connection.platform, secret.value, options);
  let reply: Response;
  try {
    reply = await fetch(connection.url, {
      method: "POST",
      headers,
      body: raw,
      signal: AbortSignal.timeout(10_000),
    });
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new AppError(
      502,
      "provider_error",
      `Tillflow could not reach the connection's URL (${why}). If the app is served at another address, set BETTER_AUTH_URL to it.`,
    );
  }
  const answer = (await reply.json().catch(() => null)) as {
    id?: string;
    result?: string;
    error?: { message?: string };
  } | null;
  if (!reply.ok || !answer?.id)
    throw new AppError(
      502,
      "provider_error",
      `The connection's URL answered ${reply.status}: ${answer?.error?.message ?? "not a delivery's reply"}`,
    );
  return { deliveryId: answer.id, result: answer.result ?? "received", topic };
}
