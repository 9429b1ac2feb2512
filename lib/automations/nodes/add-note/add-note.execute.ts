import { ActionError, type DatabaseExecutor } from "../executor";
import { entityNotes } from "@/lib/db/schema";

export const addNoteExecutor: DatabaseExecutor<{ body: string }, { body: string }> = {
  effect: "database",
  prepare: (params, ctx) => ({ body: ctx.render(params.body) }),
  async run(tx, request, ctx) {
    if (!ctx.entity)
      throw new ActionError("This run is not about a stored record, so there is nothing to add a note to.");
    const [note] = await tx
      .insert(entityNotes)
      .values({
        tenantId: ctx.tenantId,
        domain: ctx.entity.domain,
        entityId: ctx.entity.id,
        body: request.body,
        author: `Automation “${ctx.automationName}”`,
      })
      .returning({ id: entityNotes.id });
    return { noteId: note!.id };
  },
};
