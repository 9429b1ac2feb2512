"use server";

import { isAPIError } from "better-auth/api";
import { redirect } from "next/navigation";
import { z } from "zod";
import { getAuth } from "@/lib/auth/auth";
import { log } from "@/lib/log/logger";

/** What the reset page shows after an attempt. */
export interface ResetState {
  error: string | null;
}

const newPassword = z.string().min(8, "Use at least 8 characters.").max(128, "Use at most 128 characters.");

/**
 * Sets a new password with a reset token (better-auth checks it, consumes it and ends every
 * session of the person). Not built with `action()`: the token is the authority, nobody is signed in.
 */
export async function resetPassword(
  token: string,
  _previous: ResetState,
  formData: FormData,
): Promise<ResetState> {
  const parsed = newPassword.safeParse(formData.get("password"));
  if (!parsed.success) return { error: parsed.error.issues[0]!.message };
  try {
    await getAuth().api.resetPassword({ body: { token: String(token), newPassword: parsed.data } });
  } catch (error) {
    if (isAPIError(error) && error.statusCode < 500)
      return {
        error:
          "This link does not work any more: a reset link works once, for an hour. Ask for a new one under “Forgot password?” on the sign-in page.",
      };
    log().error({ err: error }, "Resetting a password failed unexpectedly");
    return { error: "Something went wrong on our side. Try again in a moment." };
  }
  redirect("/sign-in?reset=done");
}
