"use server";

import { isAPIError } from "better-auth/api";
import { headers } from "next/headers";
import { z } from "zod";
import { getAuth } from "@/lib/auth/auth";
import { log } from "@/lib/log/logger";

/** What the "Forgot password?" form shows after a request. */
export interface ResetRequestState {
  error: string | null;
  sent: string | null;
}

/**
 * Asks better-auth to email a reset link. Not built with `action()`: nobody is signed in. The
 * answer is the same whether the address has a login or not, so the form tells nobody who works here.
 */
export async function requestPasswordReset(
  _previous: ResetRequestState,
  formData: FormData,
): Promise<ResetRequestState> {
  const parsed = z
    .email()
    .max(320)
    .safeParse(
      String(formData.get("email") ?? "")
        .trim()
        .toLowerCase(),
    );
  if (!parsed.success) return { error: "Enter the email address you sign in with.", sent: null };
  try {
    await getAuth().api.requestPasswordReset({ body: { email: parsed.data }, headers: await headers() });
  } catch (error) {
    if (isAPIError(error) && error.statusCode === 429)
      return { error: "Too many requests. Wait a minute, then try again.", sent: null };
    log().error({ err: error }, "A password reset request failed unexpectedly");
    return { error: "Something went wrong on our side. Try again in a moment.", sent: null };
  }
  return { error: null, sent: parsed.data };
}
