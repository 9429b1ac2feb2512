import { forbidden } from "@/lib/errors";
import { hasRole, type Role } from "./roles";

/* Who a caller is and what their role lets them do; `resolve-caller.ts` finds them from a request. */

export type Actor =
  | { kind: "user"; userId: string; email: string; name: string }
  | { kind: "api_key"; apiKeyId: string; prefix: string };

/** Who is asking, for which shop, with what role. Every service function takes the tenant from here. */
export interface Caller {
  tenant: { id: string; slug: string; name: string; timezone: string };
  role: Role;
  actor: Actor;
}

/** Throws a 403 unless the caller's role includes `needed`. */
export function assertRole(caller: Caller, needed: Role): void {
  if (hasRole(caller.role, needed)) return;
  throw forbidden(
    needed === "admin"
      ? "Only an admin can do this."
      : "Viewers can read but not change anything. Ask an admin for the editor role.",
  );
}

export function actorLabel(actor: Actor): string {
  return actor.kind === "user" ? actor.email : `API key ${actor.prefix}…`;
}
