"use server";

import { refresh } from "next/cache";
import { action } from "@/lib/actions/action";
import { addMember, memberInput } from "@/lib/auth/users";

/** Adds a staff member to the shop (creating their login when the email is new). */
export const addUserAction = action({ role: "admin", input: memberInput }, async (values, caller) => {
  const member = await addMember(caller, values);
  refresh();
  return { userId: member.userId, email: member.email, role: member.role };
});
