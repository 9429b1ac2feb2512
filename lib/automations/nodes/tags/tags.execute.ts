import { and, eq, sql } from "drizzle-orm";
import type { Tx } from "@/lib/db/client";
import { textArray } from "@/lib/db/array-literal";
import { entities } from "@/lib/db/schema";
import { DOMAIN_LABELS } from "@/lib/domains/domains";
import { ActionError, type ActionContext, type ActionOutput, type DatabaseExecutor } from "../executor";

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

/**
 * Adds or removes one tag on many records in one statement: which rows changed, and for the
 * rest whether the record is "already so" or gone.
 */
async function setTagsMany(
  tx: Tx,
  items: { request: { tag: string }; ctx: ActionContext }[],
  add: boolean,
): Promise<(ActionOutput | ActionError)[]> {
  const results: (ActionOutput | ActionError | null)[] = items.map(({ ctx }) => {
    if (!ctx.entity)
      return new ActionError(
        `This run is not about a stored record, so there is nothing to ${add ? "tag" : "untag"}.`,
      );
    return null;
  });
  const todo = items.flatMap((item, i) => (results[i] === null ? [{ ...item, i }] : []));
  if (todo.length === 0) return results as (ActionOutput | ActionError)[];
  const rows = JSON.stringify(
    todo.map(({ request, ctx, i }) => ({
      i,
      t: ctx.tenantId,
      d: ctx.entity!.domain,
      e: ctx.entity!.id,
      tag: request.tag,
    })),
  );
  // One statement: the rows that changed, and for the rest whether the record still exists
  // ("already so" or "gone"); no two items of a call name the same record (the phase groups them
  // so). Each record is found by its key: the ids as an array let the planner see how few rows the
  // update touches (joined on the JSON alone, guessed at 100 rows, it scanned every record of the
  // shops), and the check is a LATERAL lookup (an EXISTS became a hash of the whole table).
  const found = await tx.execute<{ i: number; changed: boolean; present: boolean }>(sql`
    with v as (
      select * from json_to_recordset(${rows}::json) as v(i int, t uuid, d text, e text, tag text)
    ), changed as (
      update entities set
        tags = ${add ? sql`array_append(entities.tags, v.tag)` : sql`array_remove(entities.tags, v.tag)`},
        updated_at = now()
      from v
      where entities.id = any(${textArray(todo.map(({ ctx }) => ctx.entity!.id))}::text[])
        and entities.tenant_id = v.t and entities.domain = v.d and entities.id = v.e
        and ${add ? sql`not (v.tag = any(entities.tags))` : sql`v.tag = any(entities.tags)`}
      returning v.i
    )
    select v.i, v.i in (select i from changed) as changed, p.found is not null as present
    from v left join lateral (
      select 1 as found from entities e where e.tenant_id = v.t and e.domain = v.d and e.id = v.e limit 1
    ) p on true`);
  const changedSet = new Set(found.filter((r) => r.changed).map((r) => r.i));
  const present = new Set(found.filter((r) => r.present).map((r) => r.i));
  for (const { request, ctx, i } of todo) {
    const entity = ctx.entity!;
    results[i] =
      changedSet.has(i) || present.has(i)
        ? { tag: request.tag, changed: changedSet.has(i) }
        : new ActionError(`The ${DOMAIN_LABELS[entity.domain].one} '${entity.id}' no longer exists.`);
  }
  return results as (ActionOutput | ActionError)[];
}

export const addTagExecutor: DatabaseExecutor<{ tag: string }, { tag: string }> = {
  effect: "database",
  prepare: (params, ctx) => ({ tag: ctx.render(params.tag).trim() }),
  check: (request) => (request.tag ? null : "The tag came out empty after filling in its placeholders."),
  async run(tx, request, ctx) {
    return { tag: request.tag, changed: await setTags(tx, ctx, request.tag, true) };
  },
  runMany: (tx, items) => setTagsMany(tx, items, true),
};

export const removeTagExecutor: DatabaseExecutor<{ tag: string }, { tag: string }> = {
  effect: "database",
  prepare: (params, ctx) => ({ tag: ctx.render(params.tag).trim() }),
  async run(tx, request, ctx) {
    return { tag: request.tag, changed: await setTags(tx, ctx, request.tag, false) };
  },
  runMany: (tx, items) => setTagsMany(tx, items, false),
};
