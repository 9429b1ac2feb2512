"use server";

import { refresh } from "next/cache";
import { z } from "zod";
import { action } from "@/lib/actions/action";
import { resendInvitation } from "@/lib/auth/invitations";

const input = z.object({ id: z.string().min(1).max(200) });

/** Sends an open invitation again (admins): a new link, shown once, and 7 more days; the old link stops working. */
export const resendInvitationAction = action({ role: "admin", input }, async ({ id }, caller) => {
  const { invitation, link } = await resendInvitation(caller, id);
  refresh();
  return { id: invitation.id, email: invitation.email, link };
});
