import { body, paramsObject } from "../params";
import type { NodeDefinition } from "../types";
import { excerpt as cut } from "../sentences";

const addNoteParams = paramsObject({ body: body(5000) });

function excerpt(text: string, max = 40): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

export const addNote = {
  type: "auto.action.add_note" as const,
  category: "action",
  label: "Add note",
  description: "Adds a note to the record's timeline, written by this automation.",
  params: addNoteParams,
  defaultParams: () => ({ body: "" }),
  handles: { in: true, out: ["out"] },
  templated: ["body"],
  summarise: ({ body }) => (body.trim() ? `Add note '${excerpt(body)}'` : "Add note"),
  needsRecord: () => true,
  describeDryRun: (request, { subject }) => [`Would add a note to ${subject}: “${cut(request.body)}”`],
} satisfies NodeDefinition<typeof addNoteParams>;
