"use server";

import { isAPIError } from "better-auth/api";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { z } from "zod";
import { getAuth, signInFailedOnOurSide } from "@/lib/auth/auth";
import { membershipsOf } from "@/lib/auth/users";
import { log } from "@/lib/log/logger";

/** What the sign-in form shows after an attempt: the error, and the email to keep in the field. */
export interface SignInState {
  error: string | null;
  email: string;
}

const credentials = z.object({
  email: z.string().trim().min(1).max(320),
  password: z.string().min(1).max(128),
});

/**
 * Signs a staff member in with email and password (better-auth sets the session cookie through
 * its nextCookies plugin), then sends them to Automations. Not built with `action()`: that wrapper
 * requires a session, which is exactly what this action creates.
 */
export async function signIn(_previous: SignInState, formData: FormData): Promise<SignInState> {
  const rawEmail = formData.get("email");
  const email = typeof rawEmail === "string" ? rawEmail.trim() : "";
  const parsed = credentials.safeParse({ email, password: formData.get("password") });
  if (!parsed.success) return { error: "Enter your email address and password.", email };

  const requestHeaders = await headers();
  try {
    // The sign-in limits run inside (lib/auth/auth.ts hooks): a refusal is a 429 with its sentence.
    const result = await getAuth().api.signInEmail({ body: parsed.data, headers: requestHeaders });
    // A valid login that belongs to no shop would bounce between the admin and sign-in; say why instead.
    if ((await membershipsOf(result.user.id)).length === 0) {
      return { error: "Your account is not part of any shop yet. Ask a shop admin to add you.", email };
    }
  } catch (error) {
    if (isAPIError(error)) {
      if (error.statusCode === 429)
        return { error: error.body?.message ?? "Too many attempts. Wait a minute, then try again.", email };
      return { error: "Wrong email or password.", email };
    }
    log().error({ err: error }, "Sign-in failed unexpectedly");
    await signInFailedOnOurSide(parsed.data, requestHeaders);
    return { error: "Something went wrong on our side. Try again in a moment.", email };
  }
  redirect("/dashboard");
}
