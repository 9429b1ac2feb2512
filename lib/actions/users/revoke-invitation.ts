"use server";

import { refresh } from "next/cache";
import { z } from "zod";
import { action } from "@/lib/actions/action";
import { revokeInvitation } from "@/lib/auth/invitations";

const input = z.object({ id: z.string().min(1).max(200) });

/** Withdraws an open invitation (admins): its link stops working at once. */
export const revokeInvitationAction = action({ role: "admin", input }, async ({ id }, caller) => {
  await revokeInvitation(caller, id);
  refresh();
  return { id };
});
