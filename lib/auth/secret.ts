import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { dataRoot } from "@/lib/db/embedded";

/**
 * The secret that signs session cookies: `BETTER_AUTH_SECRET`, or for a local install one generated
 * on first start and kept in `.data/auth-secret` so sessions survive restarts.
 */
export function authSecret(): string {
  if (process.env.BETTER_AUTH_SECRET) return process.env.BETTER_AUTH_SECRET;
  const file = path.join(dataRoot(), "auth-secret");
  try {
    return fs.readFileSync(file, "utf8").trim();
  } catch {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const secret = crypto.randomBytes(32).toString("base64url");
    try {
      fs.writeFileSync(file, secret, { flag: "wx", mode: 0o600 });
      return secret;
    } catch {
      // Another process wrote it first: use theirs so both sign cookies alike.
      return fs.readFileSync(file, "utf8").trim();
    }
  }
}
