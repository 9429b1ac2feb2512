"use server";

import { refresh } from "next/cache";
import { z } from "zod";
import { action } from "@/lib/actions/action";
import { updateCredential } from "@/lib/credentials/store";
import { allowedHostsInput } from "@/lib/credentials/hosts";

const input = z.object({ id: z.uuid("that is not a credential id"), allowedHosts: allowedHostsInput });

/** Sets the hosts a credential may be sent to (admins only); every flow using it is held to them at once. */
export const updateCredentialHostsAction = action(
  { role: "admin", input },
  async ({ id, allowedHosts }, caller) => {
    const updated = await updateCredential(caller, id, { allowedHosts });
    refresh();
    return { id, allowedHosts: updated.allowedHosts };
  },
);
