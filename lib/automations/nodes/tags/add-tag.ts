import { paramsObject, tagName } from "../params";
import type { NodeDefinition } from "../types";
import { text as shown } from "../sentences";
import { hasTag } from "./record-tags";

const addTagParams = paramsObject({ tag: tagName() });

export const addTag = {
  type: "auto.action.add_tag" as const,
  category: "action",
  label: "Add tag",
  description: "Adds a tag to the record. Adding a tag it already has changes nothing.",
  params: addTagParams,
  defaultParams: () => ({ tag: "" }),
  handles: { in: true, out: ["out"] },
  templated: ["tag"],
  summarise: ({ tag }) => `Add tag '${tag}'`,
  needsRecord: () => true,
  describeDryRun: (request, { subject, entity }) => {
    const tag = shown(request.tag);
    return [
      `Would add tag '${tag}' to ${subject}${hasTag(entity, tag) ? "; it already has it, so nothing would change" : ""}.`,
    ];
  },
} satisfies NodeDefinition<typeof addTagParams>;
