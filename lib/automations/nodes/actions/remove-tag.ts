import { paramsObject, tagName } from "../params";
import type { NodeDefinition } from "../types";

const removeTagParams = paramsObject({ tag: tagName() });

export const removeTag = {
  type: "auto.action.remove_tag",
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
} satisfies NodeDefinition<typeof removeTagParams>;
