import "server-only";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { assertRole, type Caller } from "@/lib/identity/caller";
import { resolveCaller } from "./resolve-caller";
import type { Role } from "@/lib/identity/roles";

/**
 * For server components and server actions: the signed-in caller, or a redirect to sign-in.
 * With `needed`, a caller whose role is too weak gets a 403 `AppError`.
 */
export async function requireCaller(needed: Role = "viewer"): Promise<Caller> {
  const caller = await resolveCaller(await headers());
  if (!caller) redirect("/sign-in");
  assertRole(caller, needed);
  return caller;
}

/** The caller if signed in, else null (for pages that render either way, like sign-in). */
export async function currentCaller(): Promise<Caller | null> {
  return resolveCaller(await headers());
}
