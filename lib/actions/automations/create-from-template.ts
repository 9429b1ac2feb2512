"use server";

import { redirect } from "next/navigation";
import { z } from "zod";
import { action, type ActionResult } from "@/lib/actions/action";
import { UNTITLED_NAME } from "@/lib/automations/editor/names";
import { NEW_AUTOMATION_POLICY } from "@/lib/automations/lifecycle/policies";
import { createAutomation, name as nameSchema } from "@/lib/automations/lifecycle/create";
import { AUTOMATION_TEMPLATES, BLANK_TEMPLATE_ID, findTemplate } from "@/lib/automations/lifecycle/templates";

const input = z.object({
  templateId: z.enum(
    AUTOMATION_TEMPLATES.map((t) => t.id),
    "choose one of the templates",
  ),
  /** The name the person gave ("Start blank" asks for one first); default: the template's. */
  name: nameSchema.optional(),
});

const create = action({ role: "editor", input }, async ({ templateId, name: given }, caller) => {
  // The enum above already limits ids to known templates, so this lookup always succeeds.
  const template = findTemplate(templateId)!;
  const name = given ?? (templateId === BLANK_TEMPLATE_ID ? UNTITLED_NAME : template.name);
  const automation = await createAutomation(caller, {
    name,
    description: template.description,
    graph: template.graph,
    inFlightPolicy: NEW_AUTOMATION_POLICY,
  });
  return { id: automation.id };
});

/**
 * Creates a draft automation from a template and opens it in the flow editor. Redirects outside `action()`: `redirect()` works by throwing, which the wrapper would
 * otherwise report as an unexpected error.
 */
export async function createFromTemplateAction(
  raw: z.input<typeof input>,
): Promise<ActionResult<{ id: string }>> {
  const result = await create(raw);
  if (result.ok) redirect(`/automations/${encodeURIComponent(result.data.id)}`);
  return result;
}
