import { z } from "zod";
import { assertRole, type Caller } from "@/lib/identity/caller";
import type { Role } from "@/lib/identity/roles";
import { findUnstorable, unstorableError } from "@/lib/api/storable";
import { currentCaller } from "@/lib/auth/session";
import { AppError, zodIssues, type ErrorCode, type Issue } from "@/lib/errors";
import { log } from "@/lib/log/logger";

/** What every server action returns: data, or an error a form can show next to its fields. */
export type ActionResult<T> =
  { ok: true; data: T } | { ok: false; error: string; issues?: Issue[]; code?: ErrorCode };

/**
 * Builds a server action: checks the session and role, parses the input with zod, runs `fn`, and
 * returns `{ ok: false, error }` for anything the user can fix instead of throwing. The same
 * `lib/` service functions back the REST API, so both enforce the same rules.
 */
export function action<S extends z.ZodType, T>(
  options: { role: Role; input: S },
  fn: (input: z.infer<S>, caller: Caller) => Promise<T>,
): (input: z.input<S>) => Promise<ActionResult<T>> {
  return async (raw) => {
    const caller = await currentCaller();
    if (!caller) return { ok: false, error: "Your session has ended. Sign in again." };
    try {
      assertRole(caller, options.role);
      const unstorable = findUnstorable(raw);
      if (unstorable) throw unstorableError(unstorable);
      const parsed = options.input.safeParse(raw);
      if (!parsed.success) {
        const issues = zodIssues(parsed.error);
        return { ok: false, error: issues.map((i) => i.message).join("; "), issues };
      }
      return { ok: true, data: await fn(parsed.data, caller) };
    } catch (error) {
      if (error instanceof AppError)
        return { ok: false, error: error.message, issues: error.issues, code: error.code };
      log().error({ err: error }, "Unhandled error in server action");
      return { ok: false, error: "Something went wrong on our side. It has been logged; try again." };
    }
  };
}
