import { asc, eq } from "drizzle-orm";
import { z } from "zod";
import { getDb } from "@/lib/db/client";
import { tenants } from "@/lib/db/schema";
import { AppError, notFound, parseOrThrow } from "@/lib/errors";

export const tenantInput = z.object({
  slug: z
    .string()
    .regex(
      /^[a-z0-9][a-z0-9-]{1,39}$/,
      "use 2–40 lowercase letters, digits or dashes, starting with a letter or digit",
    ),
  name: z.string().trim().min(1, "give the shop a name").max(100),
  timezone: z.string().default("UTC"),
});

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

export async function listTenants(): Promise<Tenant[]> {
  return getDb().select().from(tenants).orderBy(asc(tenants.createdAt));
}
