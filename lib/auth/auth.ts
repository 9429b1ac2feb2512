import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { nextCookies } from "better-auth/next-js";
import { getDb } from "@/lib/db/client";
import * as schema from "@/lib/db/schema";
import { authRateLimit } from "./rate-limit";
import { authSecret } from "./secret";

/** The app's own address: BETTER_AUTH_URL in production, else this machine at PORT. */
function appOrigins(): { baseURL: string; trustedOrigins: string[] } {
  if (process.env.BETTER_AUTH_URL)
    return { baseURL: process.env.BETTER_AUTH_URL, trustedOrigins: [process.env.BETTER_AUTH_URL] };
  const port = process.env.PORT ?? "3000";
  return {
    baseURL: `http://localhost:${port}`,
    trustedOrigins: [`http://localhost:${port}`, `http://127.0.0.1:${port}`],
  };
}

/** The app's address, for links in emails. */
export function appUrl(): string {
  return appOrigins().baseURL.replace(/\/$/, "");
}

function createAuth() {
  return betterAuth({
    ...appOrigins(),
    appName: "Tillflow",
    secret: authSecret(),
    database: drizzleAdapter(getDb(), {
      provider: "pg",
      usePlural: true,
      schema: {
        users: schema.users,
        sessions: schema.sessions,
        accounts: schema.accounts,
        verifications: schema.verifications,
      },
    }),
    // Staff accounts are created by an admin (Settings → Users) or the CLI, never by self sign-up.
    emailAndPassword: { enabled: true, disableSignUp: true, minPasswordLength: 8 },
    session: { expiresIn: 60 * 60 * 24 * 7, updateAge: 60 * 60 * 24 },
    // Sign-in runs through server actions; this plugin lets them set the session cookie.
    plugins: [nextCookies()],
    telemetry: { enabled: false },
    // Sign-in attempts per client address, counted in Postgres (lib/auth/rate-limit.ts).
    rateLimit: authRateLimit(),
  });
}

type Auth = ReturnType<typeof createAuth>;
const holder = globalThis as unknown as { __tillflowAuth?: { url: string; auth: Auth } };

/** The better-auth instance bound to the current database (rebuilt if DATABASE_URL changes, as in tests). */
export function getAuth(): Auth {
  const url = process.env.DATABASE_URL ?? "";
  if (holder.__tillflowAuth?.url !== url) holder.__tillflowAuth = { url, auth: createAuth() };
  return holder.__tillflowAuth.auth;
}
