"use server";

import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { isAPIError } from "better-auth/api";
import { getAuth, signInFailedOnOurSide } from "@/lib/auth/auth";
import { acceptAsNewLogin, acceptAsSignedIn, viewInvitation } from "@/lib/auth/invitations";
import { AppError } from "@/lib/errors";
import { log } from "@/lib/log/logger";

/** What the invitation page shows after an attempt. */
export interface AcceptState {
  error: string | null;
}

/**
 * Not built with `action()`: the person accepting has no membership yet (and, for a new email,
 * no login), which is what that wrapper requires. The token is the only authority here, and it is
 * checked, closed and turned into a membership in one transaction (lib/auth/invitations.ts).
 */

/** A new person accepts with the name and password they chose, and is signed in. */
export async function acceptInvitationAsNewLogin(
  token: string,
  _previous: AcceptState,
  formData: FormData,
): Promise<AcceptState> {
  const name = formData.get("name");
  const password = formData.get("password");
  let email: string;
  try {
    ({ email } = await acceptAsNewLogin(token, {
      name: typeof name === "string" ? name : "",
      password: typeof password === "string" ? password : "",
    }));
  } catch (error) {
    if (error instanceof AppError) return { error: error.message };
    log().error({ err: error }, "Accepting an invitation failed unexpectedly");
    return { error: "Something went wrong on our side. Try again in a moment." };
  }
  const requestHeaders = await headers();
  const body = { email, password: String(password) };
  try {
    await getAuth().api.signInEmail({ body, headers: requestHeaders });
  } catch (error) {
    // The membership exists: a failed sign-in here only means signing in by hand.
    log().warn({ err: error }, "Signing in after accepting an invitation failed; the person can sign in");
    await signInFailedOnOurSide(body, requestHeaders);
    redirect("/sign-in");
  }
  redirect("/dashboard");
}

/** Someone signed in as the invited email accepts; anyone else is told to sign in as that email. */
export async function acceptInvitationSignedIn(token: string, _previous?: AcceptState): Promise<AcceptState> {
  const session = await getAuth().api.getSession({ headers: await headers() });
  if (!session) return { error: "Sign in as the invited email first, then open this link again." };
  try {
    await acceptAsSignedIn(token, session.user);
  } catch (error) {
    if (error instanceof AppError) return { error: error.message };
    log().error({ err: error }, "Accepting an invitation failed unexpectedly");
    return { error: "Something went wrong on our side. Try again in a moment." };
  }
  redirect("/dashboard");
}

/**
 * Someone with a login who is not signed in: signs in as the invited email (its password, through
 * the sign-in limits like the sign-in form) and accepts, in one step. Their own login, so a login
 * without any shop yet (removed from its last one) can still sign in here.
 */
export async function acceptInvitationWithPassword(
  token: string,
  _previous: AcceptState,
  formData: FormData,
): Promise<AcceptState> {
  const view = await viewInvitation(token);
  if (!view.ok) return { error: view.problem };
  const password = formData.get("password");
  if (typeof password !== "string" || !password || password.length > 128)
    return { error: "Enter your password." };
  const requestHeaders = await headers();
  const body = { email: view.email, password };
  let user: { id: string; email: string; name: string };
  try {
    ({ user } = await getAuth().api.signInEmail({ body, headers: requestHeaders }));
  } catch (error) {
    if (isAPIError(error)) {
      if (error.statusCode === 429)
        return { error: error.body?.message ?? "Too many attempts. Wait a minute, then try again." };
      return { error: `That is not the password of ${view.email}.` };
    }
    log().error({ err: error }, "Signing in to accept an invitation failed unexpectedly");
    await signInFailedOnOurSide(body, requestHeaders);
    return { error: "Something went wrong on our side. Try again in a moment." };
  }
  try {
    await acceptAsSignedIn(token, user);
  } catch (error) {
    if (error instanceof AppError) return { error: error.message };
    log().error({ err: error }, "Accepting an invitation failed unexpectedly");
    return { error: "Something went wrong on our side. Try again in a moment." };
  }
  redirect("/dashboard");
}
