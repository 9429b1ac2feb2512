import { and, eq, or, sql, type SQL } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { automationRuns, entities } from "@/lib/db/schema";
import { DOMAINS, ENTITYLESS_DOMAINS } from "@/lib/domains/domains";

/**
 * The runs list's entity filter reads what a merchant types: "#1022", "1022", an id
 * ("ord_1022") or an email ("ada@example.com"), or a customer's name. It resolves to the records
 * of the shop it names, then to the runs about them.
 */

/** At most this many records feed the runs filter; a search naming more is too broad to be useful. */
const MAX_MATCHES = 200;

/** The order numbers "#1022" and "1022" both mean (an order's number is stored either way). */
function orderNumbers(search: string): string[] {
  const bare = search.replace(/^#\s*/, "");
  return bare ? [`#${bare}`, bare] : [];
}

/**
 * The (domain, id) of every record of the shop that `search` names: by id, order number, email or
 * name, exactly (ignoring case for email and name). One query on the shop's rows of `entities`
 * (its primary key starts with the tenant, and with `domain` when given, so it reads the shop's
 * records of that domain only). The search itself is kept as an id too, so runs about a record
 * deleted since still match.
 */
export async function resolveEntitySearch(
  tenantId: string,
  search: string,
  domain?: string,
): Promise<{ domain: string | null; id: string }[]> {
  const term = search.trim();
  if (!term) return [];
  const lowered = term.toLowerCase();
  const numbers = orderNumbers(term);
  const rows = await getDb()
    .select({ domain: entities.domain, id: entities.id })
    .from(entities)
    .where(
      and(
        eq(entities.tenantId, tenantId),
        domain ? eq(entities.domain, domain) : undefined,
        or(
          eq(entities.id, term),
          sql`lower(${entities.email}) = ${lowered}`,
          sql`lower(${entities.data}->>'name') = ${lowered}`,
          numbers.length > 0
            ? sql`${entities.domain} = 'order' and ${entities.data}->>'number' in (${sql.join(
                numbers.map((n) => sql`${n}`),
                sql`, `,
              )})`
            : undefined,
        ),
      ),
    )
    .limit(MAX_MATCHES);
  return [{ domain: domain ?? null, id: term }, ...rows];
}

/** Every domain a run can be about; a bare id names its domain as one of these, so the index serves it. */
const RUN_DOMAINS = [...DOMAINS, ...ENTITYLESS_DOMAINS, "later"];

/**
 * The runs condition for resolved records: one (domain, entity_id) pair each, or the bare id in any
 * domain. Each branch is a probe of `automation_runs_entity_idx` (tenant, domain, entity_id).
 */
export function runsAboutRecords(records: { domain: string | null; id: string }[]): SQL {
  const r = automationRuns;
  const domains = sql.join(
    RUN_DOMAINS.map((d) => sql`${d}`),
    sql`, `,
  );
  const conditions = records.map((rec) =>
    rec.domain
      ? sql`(${r.domain} = ${rec.domain} and ${r.entityId} = ${rec.id})`
      : sql`(${r.domain} in (${domains}) and ${r.entityId} = ${rec.id})`,
  );
  return sql`(${sql.join(conditions, sql` or `)})`;
}
