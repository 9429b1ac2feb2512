import crypto from "node:crypto";
import { and, eq, isNull } from "drizzle-orm";
import { assertRole, type Caller } from "@/lib/identity/caller";
import { recordAudit } from "@/lib/audit";
import { getDb, type DbOrTx } from "@/lib/db/client";
import { tenants } from "@/lib/db/schema";
import { AppError, notFound } from "@/lib/errors";
import { lastFour, open, seal, UnreadableSecretError } from "./secret-box";

/**
 * The shop's signing secret (SPEC §2 "Credentials"): every HTTP action request carries Standard
 * Webhooks headers signed with it, so a receiver can tell the request came from this shop.
 *
 * It is created the first time it is needed — the first signed request, or an admin asking to see
 * it — rather than with the shop: sealing needs the app's key, which a SQL migration does not
 * have, so shops that existed before signing would need this path anyway. Two processes creating
 * it at once both try `UPDATE … WHERE signing_secret IS NULL`; one wins and the other reads the
 * winner's, so a shop never has two.
 */

/** The stored secret was sealed under another TILLFLOW_SECRET_KEY: only a rotation replaces it. */
export class UnreadableSigningSecretError extends UnreadableSecretError {
  constructor() {
    super(
      "The shop's signing secret cannot be read: TILLFLOW_SECRET_KEY is not the key it was stored with. An admin can rotate it in Settings → Shop.",
    );
    this.name = "UnreadableSigningSecretError";
  }
}

function opened(sealed: string, tenantId: string): string {
  try {
    return open(sealed, tenantId);
  } catch {
    throw new UnreadableSigningSecretError();
  }
}

/** `whsec_` and 32 random bytes in base64: the form the standardwebhooks libraries read. */
function newSecret(): string {
  return `whsec_${crypto.randomBytes(32).toString("base64")}`;
}

async function sealedOf(db: DbOrTx, tenantId: string): Promise<string | null> {
  const [row] = await db
    .select({ sealed: tenants.signingSecret })
    .from(tenants)
    .where(eq(tenants.id, tenantId));
  if (!row) throw notFound("The shop");
  return row.sealed;
}

/**
 * The secret in full, created if the shop has none yet. One primary-key read when it exists (the
 * path every HTTP action takes); not cached, so a rotation in the web app signs the very next
 * request in any worker with the new secret.
 */
export async function signingSecretOf(tenantId: string): Promise<string> {
  const db = getDb();
  const sealed = await sealedOf(db, tenantId);
  if (sealed) return opened(sealed, tenantId);
  const plain = newSecret();
  const [won] = await db
    .update(tenants)
    .set({ signingSecret: seal(plain, tenantId) })
    .where(and(eq(tenants.id, tenantId), isNull(tenants.signingSecret)))
    .returning({ id: tenants.id });
  if (won) return plain;
  // Someone else created it between our read and our update: theirs is the shop's secret.
  return opened((await sealedOf(db, tenantId))!, tenantId);
}

/** What Settings shows of the secret: whether it exists, its last 4 characters, whether it was shown. */
export interface SigningSecretStatus {
  /** Null until the first signed request or the first "Show secret". */
  lastFour: string | null;
  /** True once an admin has seen it in full: only a rotation shows a secret again. */
  shown: boolean;
  /** Set when the stored secret cannot be read (TILLFLOW_SECRET_KEY changed): rotating replaces it. */
  unreadable: boolean;
}

export async function signingSecretStatus(tenantId: string): Promise<SigningSecretStatus> {
  const [row] = await getDb()
    .select({ sealed: tenants.signingSecret, shownAt: tenants.signingSecretShownAt })
    .from(tenants)
    .where(eq(tenants.id, tenantId));
  if (!row) throw notFound("The shop");
  const shown = row.shownAt !== null;
  if (!row.sealed) return { lastFour: null, shown, unreadable: false };
  try {
    return { lastFour: lastFour(open(row.sealed, tenantId)), shown, unreadable: false };
  } catch {
    return { lastFour: null, shown, unreadable: true };
  }
}

/**
 * Hands the secret to an admin once (creating it if needed). A second call — even one racing the
 * first — is refused: from then on only `rotateSigningSecret` shows a secret.
 */
export async function showSigningSecret(caller: Caller): Promise<{ secret: string; lastFour: string }> {
  assertRole(caller, "admin");
  const tenantId = caller.tenant.id;
  const secret = await signingSecretOf(tenantId);
  return getDb().transaction(async (tx) => {
    const [first] = await tx
      .update(tenants)
      .set({ signingSecretShownAt: new Date() })
      .where(and(eq(tenants.id, tenantId), isNull(tenants.signingSecretShownAt)))
      .returning({ id: tenants.id });
    if (!first)
      throw new AppError(
        409,
        "conflict",
        "The signing secret has already been shown. Rotate it to get a new one.",
      );
    await recordAudit(tx, caller, {
      action: "shop.signing_secret_shown",
      subjectType: "shop",
      subjectId: tenantId,
      detail: { lastFour: lastFour(secret) },
    });
    return { secret, lastFour: lastFour(secret) };
  });
}

/**
 * Replaces the secret with a new one and hands it to the admin once. Requests sent from then on
 * are signed with the new secret only, so receivers must be given it. Audited with the last 4
 * characters of the old and new secrets, never their values.
 */
export async function rotateSigningSecret(caller: Caller): Promise<{ secret: string; lastFour: string }> {
  assertRole(caller, "admin");
  const tenantId = caller.tenant.id;
  const secret = newSecret();
  return getDb().transaction(async (tx) => {
    const [before] = await tx
      .select({ sealed: tenants.signingSecret })
      .from(tenants)
      .where(eq(tenants.id, tenantId))
      .for("update");
    if (!before) throw notFound("The shop");
    let previous: string | null = null;
    try {
      previous = before.sealed ? lastFour(open(before.sealed, tenantId)) : null;
    } catch {
      // An unreadable secret (the app's key changed) is exactly what a rotation is for.
    }
    await tx
      .update(tenants)
      .set({ signingSecret: seal(secret, tenantId), signingSecretShownAt: new Date() })
      .where(eq(tenants.id, tenantId));
    await recordAudit(tx, caller, {
      action: "shop.signing_secret_rotated",
      subjectType: "shop",
      subjectId: tenantId,
      detail: { before: previous, after: lastFour(secret) },
    });
    return { secret, lastFour: lastFour(secret) };
  });
}
