"use server";

import { isAPIError } from "better-auth/api";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { getAuth } from "@/lib/auth/auth";

/**
 * Ends the session and returns to sign-in. A session that already expired is not an error:
 * the person wanted to be signed out, and they are.
 */
export async function signOut(): Promise<void> {
  try {
    await getAuth().api.signOut({ headers: await headers() });
  } catch (error) {
    if (!isAPIError(error)) throw error;
  }
  redirect("/sign-in");
}
