import { eq, sql } from "drizzle-orm";
import { z } from "zod";
import { recordAudit } from "@/lib/audit";
import { getDb } from "@/lib/db/client";
import type { DbOrTx } from "@/lib/db/client";
import { attributionSettings, type AttributionGoal } from "@/lib/db/schema";
import { assertRole, type Caller } from "@/lib/identity/caller";
import { parseOrThrow } from "@/lib/errors";
import { GOALS } from "./words";

/** A shop's goal and attribution window (Settings → Automations; `GET/PUT /api/v1/settings/attribution`). */
export interface AttributionSettings {
  goal: AttributionGoal;
  /** 1–30; default 5. */
  windowDays: number;
  /** ISO 4217 code the report sums in; null: the currency most attributed orders are in. */
  currency: string | null;
}

export const DEFAULT_ATTRIBUTION: AttributionSettings = { goal: "order_paid", windowDays: 5, currency: null };

export const attributionInput = z.strictObject({
  goal: z.enum(GOALS, { error: "must be order_paid or order_created" }).optional(),
  windowDays: z
    .number({ error: "must be a whole number of days from 1 to 30" })
    .int("must be a whole number of days from 1 to 30")
    .min(1, "must be at least 1 day")
    .max(30, "can be at most 30 days")
    .optional(),
  currency: z
    .string()
    .regex(/^[A-Za-z]{3}$/, "must be a three-letter currency code such as EUR")
    .transform((c) => c.toUpperCase())
    .nullable()
    .optional(),
});

export async function attributionSettingsOf(db: DbOrTx, tenantId: string): Promise<AttributionSettings> {
  const [row] = await db.select().from(attributionSettings).where(eq(attributionSettings.tenantId, tenantId));
  return row ? { goal: row.goal, windowDays: row.windowDays, currency: row.currency } : DEFAULT_ATTRIBUTION;
}

export async function readAttributionSettings(caller: Caller): Promise<AttributionSettings> {
  return attributionSettingsOf(getDb(), caller.tenant.id);
}

/**
 * Sets the goal, window and currency (admin; audited). They hold for orders recorded from now on:
 * an order already attributed keeps its attribution.
 */
export async function setAttributionSettings(caller: Caller, input: unknown): Promise<AttributionSettings> {
  assertRole(caller, "admin");
  const parsed = parseOrThrow(attributionInput, input, "Those attribution settings are not valid");
  return getDb().transaction(async (tx) => {
    const current = await attributionSettingsOf(tx, caller.tenant.id);
    const next: AttributionSettings = {
      goal: parsed.goal ?? current.goal,
      windowDays: parsed.windowDays ?? current.windowDays,
      currency: parsed.currency === undefined ? current.currency : parsed.currency,
    };
    await tx
      .insert(attributionSettings)
      .values({ tenantId: caller.tenant.id, ...next })
      .onConflictDoUpdate({
        target: attributionSettings.tenantId,
        set: { ...next, updatedAt: sql`now()` },
      });
    await recordAudit(tx, caller, {
      action: "shop.attribution_set",
      subjectType: "shop",
      subjectId: caller.tenant.id,
      detail: { ...next },
    });
    return next;
  });
}
