"use server";

import { action } from "@/lib/actions/action";
import { codePreviewInput, previewCode } from "@/lib/automations/dry-run/code-preview";

/**
 * "Run on a record" under a code step's editor: runs the script as typed against one of the
 * shop's records and says what it would do. It takes no action, but it runs merchant code on the
 * server, so it is for those who write flows: editors and admins.
 */
export const previewCodeAction = action({ role: "editor", input: codePreviewInput }, async (input, caller) =>
  previewCode(caller.tenant.id, input, { timeZone: caller.tenant.timezone }),
);
