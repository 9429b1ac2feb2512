import { paramsObject, tagName } from "../params";
import type { NodeDefinition } from "../types";

const addTagParams = paramsObject({ tag: tagName() });

export const addTag = {
  type: "auto.action.add_tag",
  category: "action",
  label: "Add tag",
  description: "Adds a tag to the record. Adding a tag it already has changes nothing.",
  params: addTagParams,
  defaultParams: () => ({ tag: "" }),
  handles: { in: true, out: ["out"] },
  templated: ["tag"],
  summarise: ({ tag }) => `Add tag '${tag}'`,
} satisfies NodeDefinition<typeof addTagParams>;
