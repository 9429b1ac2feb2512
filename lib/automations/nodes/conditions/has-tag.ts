import { paramsObject, tagName } from "../params";
import type { ConditionDefinition, EvaluationContext } from "../types";
import { noRecordWhy, tagWhy } from "./why";

/** True when the record carries the tag; tags compare without regard to case or surrounding spaces. */
export function entityHasTag(entity: EvaluationContext["entity"], tag: string): boolean {
  const tags = entity?.tags;
  if (!Array.isArray(tags)) return false;
  const wanted = tag.trim().toLowerCase();
  return tags.some((item) => typeof item === "string" && item.trim().toLowerCase() === wanted);
}

const hasTagParams = paramsObject({ tag: tagName() });

export const hasTagCondition = {
  type: "auto.condition.has_tag",
  category: "condition",
  label: "Has tag",
  description: "Follows 'true' when the record has the tag, 'false' otherwise. Case does not matter.",
  params: hasTagParams,
  defaultParams: () => ({ tag: "" }),
  handles: { in: true, out: ["true", "false"] },
  summarise: ({ tag }) => `Has tag '${tag}'`,
  outputs: () => [{ path: "result", label: "whether it was true" }],
  evaluate: (params, ctx) => entityHasTag(ctx.entity, params.tag),
  explain: (params, ctx, result) =>
    ctx.entity ? tagWhy(params.tag, ctx.entity.tags, result, ctx.subject) : noRecordWhy("has_tag"),
} satisfies ConditionDefinition<typeof hasTagParams>;
