"use server";

import { redirect } from "next/navigation";
import type { z } from "zod";
import { action, type ActionResult } from "@/lib/actions/action";
import { buildFlow } from "@/lib/automations/ai/build";
import { builtDescription } from "@/lib/automations/ai/notes";
import { buildInput } from "@/lib/automations/ai/input";
import { NEW_AUTOMATION_POLICY } from "@/lib/automations/lifecycle/policies";
import { createAutomation } from "@/lib/automations/lifecycle/create";

const build = action({ role: "editor", input: buildInput }, async ({ prompt }, caller) => {
  const result = await buildFlow(prompt, {
    tenantId: caller.tenant.id,
    timeZone: caller.tenant.timezone,
  });
  // A draft, whatever its ready issues: the merchant fixes and publishes it in the editor.
  const automation = await createAutomation(caller, {
    name: result.name,
    description: builtDescription(prompt, result.notes),
    graph: result.graph,
    inFlightPolicy: NEW_AUTOMATION_POLICY,
  });
  return { id: automation.id };
});

/**
 * "Describe your automation": asks the model for a flow, saves it as a new draft (never
 * published) and opens it in the editor, which says what was assumed. Redirects outside
 * `action()`: `redirect()` works by throwing, which the wrapper would report as an unexpected error.
 */
export async function buildWithAiAction(
  raw: z.input<typeof buildInput>,
): Promise<ActionResult<{ id: string }>> {
  const result = await build(raw);
  if (result.ok) redirect(`/automations/${encodeURIComponent(result.data.id)}?built=ai`);
  return result;
}
