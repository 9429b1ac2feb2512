import { asc, eq } from "drizzle-orm";
import { z } from "zod";
import { getDb } from "@/lib/db/client";
import { tenants } from "@/lib/db/schema";
import { recordAudit } from "@/lib/audit";
import { isTimeZone } from "@/lib/time/zones";
import { AppError, notFound, parseOrThrow } from "@/lib/errors";
import { forgetShopKeys } from "./api-keys";
import type { Caller } from "@/lib/identity/caller";

const shopName = z.string().trim().min(1, "give the shop a name").max(100);
const timeZone = z
  .string()
  .refine(isTimeZone, "choose a time zone from the list, such as Europe/Paris or America/New_York");

export const tenantInput = z.object({
  slug: z
    .string()
    .regex(
      /^[a-z0-9][a-z0-9-]{1,39}$/,
      "use 2–40 lowercase letters, digits or dashes, starting with a letter or digit",
    ),
  name: shopName,
  timezone: timeZone.default("UTC"),
});

/** What an admin can change about the shop (Settings → Shop). */
export const shopSettingsInput = z.object({ name: shopName, timezone: timeZone });

export interface ShopSettings {
  name: string;
  timezone: string;
}

/**
 * Renames the shop and/or moves it to another time zone — every time in the admin is then shown
 * there (schedules keep their own zones). Recorded in the audit log with what changed.
 */
export async function updateShopSettings(caller: Caller, input: unknown): Promise<ShopSettings> {
  const values = parseOrThrow(shopSettingsInput, input, "The shop settings are invalid");
  const saved = await getDb().transaction(async (tx) => {
    const [before] = await tx
      .select({ name: tenants.name, timezone: tenants.timezone })
      .from(tenants)
      .where(eq(tenants.id, caller.tenant.id))
      .for("update");
    if (!before) throw notFound("The shop");
    await tx.update(tenants).set(values).where(eq(tenants.id, caller.tenant.id));
    await recordAudit(tx, caller, {
      action: "shop.updated",
      subjectType: "shop",
      subjectId: caller.tenant.id,
      detail: { before, after: values },
    });
    return values;
  });
  // API keys remembered in this process carry the old name and zone (see forgetShopKeys).
  forgetShopKeys(caller.tenant.id);
  return saved;
}

export type Tenant = typeof tenants.$inferSelect;

export async function createTenant(input: z.input<typeof tenantInput>): Promise<Tenant> {
  const values = parseOrThrow(tenantInput, input, "The shop is invalid");
  const [row] = await getDb().insert(tenants).values(values).onConflictDoNothing().returning();
  if (!row) throw new AppError(409, "conflict", `A shop with the slug '${values.slug}' already exists.`);
  return row;
}

export async function findTenantBySlug(slug: string): Promise<Tenant> {
  const [row] = await getDb().select().from(tenants).where(eq(tenants.slug, slug));
  if (!row) throw notFound(`The shop '${slug}'`);
  return row;
}

/** The weights an operator may give a shop's share of the workers (lib/queue/fair-share.ts). */
export const QUEUE_WEIGHTS = { min: 1, max: 100 } as const;

/** Sets a shop's fair-share weight (`tillflow tenant set-weight`); its jobs queued next use it. */
export async function setQueueWeight(slug: string, weight: number): Promise<Tenant> {
  if (!Number.isInteger(weight) || weight < QUEUE_WEIGHTS.min || weight > QUEUE_WEIGHTS.max)
    throw new AppError(
      400,
      "bad_request",
      `A shop's weight is a whole number from ${QUEUE_WEIGHTS.min} to ${QUEUE_WEIGHTS.max}, not '${weight}'.`,
    );
  const [row] = await getDb()
    .update(tenants)
    .set({ queueWeight: weight })
    .where(eq(tenants.slug, slug))
    .returning();
  if (!row) throw notFound(`The shop '${slug}'`);
  return row;
}

export async function listTenants(): Promise<Tenant[]> {
  return getDb().select().from(tenants).orderBy(asc(tenants.createdAt));
}
