import crypto from "node:crypto";
import { eq } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { automationHookTokens, automations } from "@/lib/db/schema";
import { AppError, notFound } from "@/lib/errors";
import { credentialSecret } from "@/lib/credentials/store";
import { recordEvents, runsForEvent } from "@/lib/automations/engine/start/events";
import { claimSignature, SIGNATURE_HEADER, verifySignature } from "./signature";

export { SIGNATURE_HEADER };

export const MAX_HOOK_BODY_BYTES = 256_000;

/** The trigger's signing secret; a hook whose credential was deleted accepts nothing. */
async function hookSecret(tenantId: string, credentialId: string): Promise<string> {
  const credential = await credentialSecret(tenantId, credentialId);
  if (!credential)
    throw new AppError(
      409,
      "conflict",
      "This webhook's signing secret was deleted; the shop must choose a new one.",
    );
  return credential.value;
}

export const hookBodyTooLarge = () => new AppError(413, "too_large", "The body is larger than 256 KB.");

/**
 * An inbound webhook call: finds the automation that owns the token, checks the signature when the
 * trigger has a secret (`X-Tillflow-Signature: t=…,v1=…`, within 5 minutes, once: hook-signature.ts),
 * records a `webhook.received` event aimed at that trigger, and
 * starts its run in the same transaction. `Idempotency-Key` (or `X-Event-Id`) makes a retried
 * delivery start nothing new.
 *
 * The body is read (`readBody`, at most `MAX_HOOK_BODY_BYTES`) only once the token names an active
 * automation: a stranger guessing URLs cannot make us read what they send.
 */
export async function receiveWebhook(
  token: string,
  readBody: (maxBytes: number) => Promise<string>,
  headers: Headers,
) {
  if (!/^[A-Za-z0-9_-]{16,200}$/.test(token)) throw notFound("This webhook URL");
  const [hook] = await getDb()
    .select({
      tenantId: automationHookTokens.tenantId,
      automationId: automationHookTokens.automationId,
      nodeId: automationHookTokens.nodeId,
      secretCredentialId: automationHookTokens.secretCredentialId,
      status: automations.status,
    })
    .from(automationHookTokens)
    .innerJoin(automations, eq(automations.id, automationHookTokens.automationId))
    .where(eq(automationHookTokens.token, token));
  if (!hook) throw notFound("This webhook URL");
  if (hook.status !== "active")
    throw new AppError(409, "conflict", "The automation behind this webhook is not active.");
  const rawBody = await readBody(MAX_HOOK_BODY_BYTES);
  const signature = hook.secretCredentialId
    ? verifySignature(
        await hookSecret(hook.tenantId, hook.secretCredentialId),
        rawBody,
        headers.get(SIGNATURE_HEADER),
      )
    : null;
  let body: unknown = {};
  if (rawBody.trim()) {
    try {
      body = JSON.parse(rawBody);
    } catch {
      throw new AppError(400, "bad_request", "The body is not valid JSON.");
    }
  }
  const key = headers.get("idempotency-key") ?? headers.get("x-event-id");
  if (key && !/^[\w.:-]{1,150}$/.test(key))
    throw new AppError(400, "bad_request", "The Idempotency-Key header is invalid.");
  const eventId = key ? `hook_${hook.automationId}_${key}` : `hook_${crypto.randomUUID()}`;
  return getDb().transaction(async (tx) => {
    // Claimed with the event it admits: a refused replay records nothing, and a failed insert
    // leaves the signature unused for the sender's retry.
    if (signature) await claimSignature(tx, token, signature);
    const [event] = await recordEvents(
      tx,
      hook.tenantId,
      [
        {
          id: eventId,
          type: "webhook.received",
          domain: "webhook",
          entityId: null,
          payload: { body, contentType: headers.get("content-type"), userAgent: headers.get("user-agent") },
        },
      ],
      { automationId: hook.automationId, nodeId: hook.nodeId },
    );
    const runs = await runsForEvent(tx, hook.tenantId, [event!.id]);
    const sameAutomation = runs.filter((r) => r.automationId === hook.automationId);
    return { eventId: event!.id, duplicate: !event!.inserted, runIds: sameAutomation.map((r) => r.id) };
  });
}
