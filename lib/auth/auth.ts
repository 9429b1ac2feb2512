import "server-only";
import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { APIError, createAuthMiddleware, isAPIError } from "better-auth/api";
import { nextCookies } from "better-auth/next-js";
import { currentDb } from "@/lib/db/client";
import * as schema from "@/lib/db/schema";
import { authIpAddress, authRateLimit } from "@/lib/rate-limit/sign-in";
import { authSecret } from "@/lib/credentials/local-secret";
import { admitSignIn, clearAccountFailures, uncountAccountAttempt } from "./sign-in-limits";
import { config } from "@/lib/config/config";
import { RESET_TOKEN_SECONDS, resetPath, sendPasswordResetEmail } from "./password-reset";

/** The app's own address: BETTER_AUTH_URL in production, else this machine at PORT. */
function appOrigins(): { baseURL: string; trustedOrigins: string[] } {
  const { BETTER_AUTH_URL, PORT } = config();
  if (BETTER_AUTH_URL) return { baseURL: BETTER_AUTH_URL, trustedOrigins: [BETTER_AUTH_URL] };
  const port = String(PORT);
  return {
    baseURL: `http://localhost:${port}`,
    trustedOrigins: [`http://localhost:${port}`, `http://127.0.0.1:${port}`],
  };
}

/** The origins the app is served from: API writes by a session cookie must come from one. */
export function trustedOrigins(): string[] {
  return appOrigins().trustedOrigins.map((origin) => new URL(origin).origin);
}

const SIGN_IN_PATH = "/sign-in/email";

function emailOf(body: unknown): string | null {
  const email = (body as { email?: unknown } | null)?.email;
  return typeof email === "string" && email.trim() ? email : null;
}

/**
 * Sign-in limits (lib/auth/sign-in-limits.ts) as better-auth hooks, which run for its HTTP endpoint
 * and for `auth.api.signInEmail` (the form) alike: before the password is checked, the attempt is
 * counted and maybe refused (429 with `Retry-After`); after it, a success clears the account's count.
 */
const signInHooks = {
  before: createAuthMiddleware(async (ctx) => {
    const email = ctx.path === SIGN_IN_PATH ? emailOf(ctx.body) : null;
    if (!email) return;
    const refusal = await admitSignIn(email, ctx.headers ?? new Headers());
    if (refusal) {
      throw new APIError(
        "TOO_MANY_REQUESTS",
        { message: refusal.message, code: "TOO_MANY_SIGN_IN_ATTEMPTS" },
        { "Retry-After": String(refusal.retryAfterSeconds) },
      );
    }
  }),
  after: createAuthMiddleware(async (ctx) => {
    const email = ctx.path === SIGN_IN_PATH ? emailOf(ctx.body) : null;
    if (!email) return;
    const returned = ctx.context.returned;
    const headers = ctx.headers ?? new Headers();
    if (!isAPIError(returned)) await clearAccountFailures(email, headers);
    else if (returned.statusCode !== WRONG_CREDENTIALS) await uncountAccountAttempt(email, headers);
  }),
};

/** better-auth's answer to a wrong email or password: the only outcome that counts toward the limits. */
const WRONG_CREDENTIALS = 401;

/**
 * A sign-in that failed on our side (an error better-auth did not turn into an answer, so its
 * after hook never ran): the attempt counted before it is taken back. For the sign-in form and
 * the HTTP route, which see such errors.
 */
export async function signInFailedOnOurSide(body: unknown, headers: Headers): Promise<void> {
  const email = emailOf(body);
  if (email) await uncountAccountAttempt(email, headers).catch(() => {});
}

/** Whether a request to better-auth's routes is an email sign-in. */
export function isSignInRequest(request: Request): boolean {
  return request.method === "POST" && new URL(request.url).pathname.endsWith(SIGN_IN_PATH);
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
    // The pool of the moment, never the one that existed when this instance was built.
    database: drizzleAdapter(currentDb, {
      provider: "pg",
      usePlural: true,
      schema: {
        users: schema.users,
        sessions: schema.sessions,
        accounts: schema.accounts,
        verifications: schema.verifications,
      },
    }),
    // Staff accept an invitation (lib/auth/invitations.ts) or are created by the operator's CLI,
    // never by self sign-up. A forgotten password is reset by email (lib/auth/password-reset.ts):
    // the token works once, for an hour, and the reset ends every session of the person.
    emailAndPassword: {
      enabled: true,
      disableSignUp: true,
      minPasswordLength: 8,
      resetPasswordTokenExpiresIn: RESET_TOKEN_SECONDS,
      revokeSessionsOnPasswordReset: true,
      // better-auth's `url` points at its own API; the link goes to our page, which posts the token.
      sendResetPassword: ({ user, token }) =>
        sendPasswordResetEmail(user.email, `${appUrl()}${resetPath(token)}`),
    },
    // Reset tokens are stored as their SHA-256 (the database never holds one that works).
    verification: { storeIdentifier: { default: "plain", overrides: { "reset-password:": "hashed" } } },
    session: { expiresIn: 60 * 60 * 24 * 7, updateAge: 60 * 60 * 24 },
    // Sign-in runs through server actions; this plugin lets them set the session cookie.
    plugins: [nextCookies()],
    telemetry: { enabled: false },
    // better-auth's limiter (lib/rate-limit/sign-in.ts); sign-in's own limits are the hooks above.
    rateLimit: authRateLimit(),
    hooks: signInHooks,
    advanced: { ipAddress: authIpAddress },
  });
}

type Auth = ReturnType<typeof createAuth>;
const holder = globalThis as unknown as { __tillflowAuth?: { url: string; auth: Auth } };

/** The better-auth instance bound to the current database (rebuilt if DATABASE_URL changes, as in tests). */
export function getAuth(): Auth {
  const url = config().DATABASE_URL ?? "";
  if (holder.__tillflowAuth?.url !== url) holder.__tillflowAuth = { url, auth: createAuth() };
  return holder.__tillflowAuth.auth;
}
