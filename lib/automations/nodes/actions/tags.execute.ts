import { and, eq, sql } from "drizzle-orm";
import type { Tx } from "@/lib/db/client";
import { entities } from "@/lib/db/schema";
import { DOMAIN_LABELS } from "@/lib/entities/domains";
import { ActionError, type ActionContext, type DatabaseExecutor } from "../executor";

function requireEntity(ctx: ActionContext, verb: string) {
  if (!ctx.entity)
    throw new ActionError(`This run is not about a stored record, so there is nothing to ${verb}.`);
  return ctx.entity;
}

async function setTags(tx: Tx, ctx: ActionContext, tag: string, add: boolean): Promise<boolean> {
  const entity = requireEntity(ctx, add ? "tag" : "untag");
  const where = and(
    eq(entities.tenantId, ctx.tenantId),
    eq(entities.domain, entity.domain),
    eq(entities.id, entity.id),
  );
  const [before] = await tx.select({ tags: entities.tags }).from(entities).where(where).for("update");
  if (!before)
    throw new ActionError(`The ${DOMAIN_LABELS[entity.domain].one} '${entity.id}' no longer exists.`);
  const has = before.tags.includes(tag);
  if (has === add) return false;
  await tx
    .update(entities)
    .set({
      tags: add ? sql`array_append(${entities.tags}, ${tag})` : sql`array_remove(${entities.tags}, ${tag})`,
      updatedAt: new Date(),
    })
    .where(where);
  return true;
}

export const addTagExecutor: DatabaseExecutor<{ tag: string }, { tag: string }> = {
  effect: "database",
  prepare: (params, ctx) => ({ tag: ctx.render(params.tag).trim() }),
  async run(tx, request, ctx) {
    if (!request.tag) throw new ActionError("The tag came out empty after filling in its placeholders.");
    return { tag: request.tag, changed: await setTags(tx, ctx, request.tag, true) };
  },
};

export const removeTagExecutor: DatabaseExecutor<{ tag: string }, { tag: string }> = {
  effect: "database",
  prepare: (params, ctx) => ({ tag: ctx.render(params.tag).trim() }),
  async run(tx, request, ctx) {
    return { tag: request.tag, changed: await setTags(tx, ctx, request.tag, false) };
  },
};
