import "server-only";
import crypto from "node:crypto";
import { localSecret } from "@/lib/credentials/local-secret";
import { config } from "@/lib/config/config";

/**
 * Secrets at rest (SPEC §2 "Credentials"): AES-256-GCM under `TILLFLOW_SECRET_KEY` (32 bytes,
 * base64 or hex), or for a local install a key generated on first start into `.data/secret-key`.
 * A sealed value reads `v1.<iv>.<tag>.<ciphertext>` (base64url), so a later key or cipher can be
 * told apart from this one.
 */
const VERSION = "v1";

let cachedKey: { source: string; key: Buffer } | null = null;

function decodeKey(text: string): Buffer {
  const trimmed = text.trim();
  const key = /^[0-9a-f]{64}$/i.test(trimmed) ? Buffer.from(trimmed, "hex") : Buffer.from(trimmed, "base64");
  if (key.length !== 32)
    throw new Error(
      "TILLFLOW_SECRET_KEY must be 32 bytes, written as 64 hex digits or base64 (openssl rand -base64 32).",
    );
  return key;
}

function secretKey(): Buffer {
  const source = config().TILLFLOW_SECRET_KEY || localSecret("secret-key");
  if (cachedKey?.source !== source) cachedKey = { source, key: decodeKey(source) };
  return cachedKey.key;
}

/**
 * A key for one use of its own (`purpose`: "unsubscribe links"), derived from the secret key by
 * HKDF: a signature made with it proves nothing about any other use, and the secret key never
 * leaves this file.
 */
export function derivedKey(purpose: string): Buffer {
  return Buffer.from(crypto.hkdfSync("sha256", secretKey(), Buffer.alloc(0), `tillflow ${purpose}`, 32));
}

/** Encrypts a secret for storage; `context` (the shop's id) is authenticated with it. */
export function seal(plain: string, context: string): string {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv("aes-256-gcm", secretKey(), iv);
  cipher.setAAD(Buffer.from(context));
  const sealed = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return [VERSION, iv, cipher.getAuthTag(), sealed]
    .map((part) => (typeof part === "string" ? part : part.toString("base64url")))
    .join(".");
}

/** A stored secret that this key cannot open: it fails the same way every time (not worth a retry). */
export class UnreadableSecretError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UnreadableSecretError";
  }
}

/** The secret back; throws UnreadableSecretError when it was not sealed with this key for this context. */
export function open(sealed: string, context: string): string {
  const [version, iv, tag, data] = sealed.split(".");
  if (version !== VERSION || !iv || !tag || data === undefined)
    throw new UnreadableSecretError("This secret is not stored in a form Tillflow can read.");
  const decipher = crypto.createDecipheriv("aes-256-gcm", secretKey(), Buffer.from(iv, "base64url"));
  decipher.setAAD(Buffer.from(context));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  try {
    return Buffer.concat([decipher.update(Buffer.from(data, "base64url")), decipher.final()]).toString(
      "utf8",
    );
  } catch {
    throw new UnreadableSecretError(
      "A stored secret could not be decrypted: TILLFLOW_SECRET_KEY is not the key it was stored with.",
    );
  }
}

/** "…a1b2": the last 4 characters, all a reply ever shows of a secret. */
export function lastFour(plain: string): string {
  return plain.slice(-4);
}
