"use server";

import { refresh } from "next/cache";
import { z } from "zod";
import { action } from "@/lib/actions/action";
import { removeMember } from "@/lib/auth/users";
import { recheckQuorums } from "@/lib/automations/engine/votes";
import { getDb } from "@/lib/db/client";
import { AppError } from "@/lib/errors";

const input = z.object({ userId: z.string().min(1).max(200) });

/** Removes a member from this shop (their login stays for any other shop they work for). */
export const removeUserAction = action({ role: "admin", input }, async ({ userId }, caller) => {
  if (caller.actor.kind === "user" && caller.actor.userId === userId) {
    throw new AppError(409, "conflict", "You cannot remove yourself. Ask another admin to do it.");
  }
  await removeMember(caller, userId);
  // Their teams went with the membership: an approval they could have met may no longer be possible.
  await getDb().transaction((tx) => recheckQuorums(tx, caller.tenant.id));
  refresh();
  return { userId };
});
