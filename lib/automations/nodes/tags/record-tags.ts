import type { RunEntity } from "../context";

/** Whether the run's record has the tag already, as a dry run tells it ("it already has it"). */
export function hasTag(entity: RunEntity | null, tag: string): boolean {
  return Array.isArray(entity?.data.tags) && entity.data.tags.includes(tag);
}
