import { and, eq, sql } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { credentials } from "@/lib/db/schema";
import { hostOfUrl } from "./hosts";
import { open } from "./secret-box";

/**
 * Fills the `allowedHosts` of Slack webhook credentials stored before credentials had hosts: a
 * Slack webhook is only ever sent to its own URL, whose host the list then shows. The URL is
 * sealed, so the SQL migration that added the column could not read it; `migrateDatabase` runs
 * this after the migrations. Idempotent and cheap: only Slack credentials with an empty list are
 * read, and a URL this key cannot open is left for the operator (its sends fail with a sentence).
 */
export async function fillSlackHosts(db: Db): Promise<number> {
  const rows = await db
    .select({ id: credentials.id, tenantId: credentials.tenantId, value: credentials.value })
    .from(credentials)
    .where(and(eq(credentials.kind, "slack_webhook"), sql`cardinality(${credentials.allowedHosts}) = 0`));
  let filled = 0;
  for (const row of rows) {
    let host: string | null;
    try {
      host = hostOfUrl(open(row.value, row.tenantId));
    } catch {
      continue;
    }
    if (!host) continue;
    await db
      .update(credentials)
      .set({ allowedHosts: [host] })
      .where(eq(credentials.id, row.id));
    filled++;
  }
  return filled;
}
