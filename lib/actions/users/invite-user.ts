"use server";

import { refresh } from "next/cache";
import { action } from "@/lib/actions/action";
import { inviteInput, inviteMember } from "@/lib/auth/invitations";

/**
 * Invites someone to the shop by email (admins). Nobody's password is asked for: the person sets
 * their own, or accepts with the login they have. The link comes back once, for the admin to copy.
 */
export const inviteUserAction = action({ role: "admin", input: inviteInput }, async (values, caller) => {
  const { invitation, link } = await inviteMember(caller, values);
  refresh();
  return { id: invitation.id, email: invitation.email, role: invitation.role, link };
});
