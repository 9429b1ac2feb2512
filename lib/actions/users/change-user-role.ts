"use server";

import { refresh } from "next/cache";
import { z } from "zod";
import { action } from "@/lib/actions/action";
import { ROLES } from "@/lib/identity/roles";
import { changeMemberRole } from "@/lib/auth/users";
import { AppError } from "@/lib/errors";

const input = z.object({
  userId: z.string().min(1).max(200),
  role: z.enum(ROLES, "choose admin, editor or viewer"),
});

/**
 * Changes a member's role. Admins cannot change their own role: that keeps at least one admin in
 * every shop (the one making the change) and stops anyone locking themselves out by accident.
 */
export const changeUserRoleAction = action({ role: "admin", input }, async ({ userId, role }, caller) => {
  if (caller.actor.kind === "user" && caller.actor.userId === userId) {
    throw new AppError(409, "conflict", "You cannot change your own role. Ask another admin to do it.");
  }
  await changeMemberRole(caller, userId, role);
  refresh();
  return { userId, role };
});
