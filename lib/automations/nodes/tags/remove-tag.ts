import { paramsObject, tagName } from "../params";
import type { NodeDefinition } from "../types";
import { text as shown } from "../sentences";
import { hasTag } from "./record-tags";

const removeTagParams = paramsObject({ tag: tagName() });

export const removeTag = {
  type: "auto.action.remove_tag" as const,
  category: "action",
  label: "Remove tag",
  description:
    "Removes a tag from the record, whatever its case. Removing a tag it does not have changes nothing.",
  params: removeTagParams,
  defaultParams: () => ({ tag: "" }),
  handles: { in: true, out: ["out"] },
  // Templated like add_tag, so a flow can remove the tag an earlier step added from a token.
  templated: ["tag"],
  summarise: ({ tag }) => `Remove tag '${tag}'`,
  needsRecord: () => true,
  describeDryRun: (request, { subject, entity }) => {
    const tag = shown(request.tag);
    return [
      `Would remove tag '${tag}' from ${subject}${entity && !hasTag(entity, tag) ? "; it does not have it, so nothing would change" : ""}.`,
    ];
  },
} satisfies NodeDefinition<typeof removeTagParams>;
