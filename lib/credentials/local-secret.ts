import "server-only";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { dataRoot } from "@/lib/db/embedded";
import { config } from "@/lib/config/config";

/**
 * A secret for a local install: generated on first start into `.data/<name>` and kept there, so it
 * survives restarts. Every process of the machine reads the same one.
 */
export function localSecret(name: string): string {
  const file = path.join(dataRoot(), name);
  try {
    return fs.readFileSync(file, "utf8").trim();
  } catch {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const secret = crypto.randomBytes(32).toString("base64url");
    try {
      fs.writeFileSync(file, secret, { flag: "wx", mode: 0o600 });
      return secret;
    } catch {
      // Another process wrote it first: use theirs so both agree.
      return fs.readFileSync(file, "utf8").trim();
    }
  }
}

/**
 * The secret that signs session cookies: `BETTER_AUTH_SECRET`, or for a local install one generated
 * on first start and kept in `.data/auth-secret` so sessions survive restarts.
 */
export function authSecret(): string {
  return config().BETTER_AUTH_SECRET || localSecret("auth-secret");
}
