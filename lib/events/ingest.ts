import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { getDb } from "@/lib/db/client";
import { entities } from "@/lib/db/schema";
import { DOMAIN_LABELS, DOMAINS, ENTITYLESS_DOMAINS, isDomain } from "@/lib/entities/domains";
import { AppError, parseOrThrow } from "@/lib/errors";
import { recordEvents, type RecordedEvent } from "./record";

const ALL_DOMAINS = [...DOMAINS, ...ENTITYLESS_DOMAINS] as const;

export const eventInput = z
  .strictObject({
    id: z
      .string()
      .min(1)
      .max(200)
      .regex(/^[A-Za-z0-9._:-]+$/, "use letters, digits, dots, dashes, colons or underscores")
      .optional(),
    type: z.string().regex(/^[a-z]+\.[a-z_]+$/, "must look like 'order.paid': a domain, a dot and a verb"),
    domain: z.enum(ALL_DOMAINS, `must be one of ${ALL_DOMAINS.join(", ")}`),
    entityId: z.string().min(1).max(200).optional(),
    payload: z.record(z.string(), z.unknown()).default({}),
  })
  .superRefine((event, ctx) => {
    if (!event.type.startsWith(`${event.domain}.`)) {
      ctx.addIssue({
        code: "custom",
        path: ["type"],
        message: `must start with '${event.domain}.' to match the domain`,
      });
    }
    if (isDomain(event.domain) && !event.entityId) {
      ctx.addIssue({ code: "custom", path: ["entityId"], message: `is required for ${event.domain} events` });
    }
  });

/**
 * Records an event sent through the API. Idempotent by `id`: sending the same id again records
 * nothing and reports `duplicate: true`. Events about stored records must name one that exists.
 */
export async function ingestEvent(
  tenantId: string,
  body: unknown,
): Promise<{ event: RecordedEvent; duplicate: boolean }> {
  const input = parseOrThrow(eventInput, body, "The event is invalid");
  return getDb().transaction(async (tx) => {
    if (isDomain(input.domain) && input.entityId) {
      const [found] = await tx
        .select({ id: entities.id })
        .from(entities)
        .where(
          and(
            eq(entities.tenantId, tenantId),
            eq(entities.domain, input.domain),
            eq(entities.id, input.entityId),
          ),
        );
      if (!found) {
        throw new AppError(
          404,
          "not_found",
          `The ${DOMAIN_LABELS[input.domain].one} '${input.entityId}' was not found.`,
        );
      }
    }
    const [event] = await recordEvents(tx, tenantId, [
      {
        id: input.id,
        type: input.type,
        domain: input.domain,
        entityId: input.entityId ?? null,
        payload: input.payload,
      },
    ]);
    return { event: event!, duplicate: !event!.inserted };
  });
}
