import "server-only";
import { sql } from "drizzle-orm";
import type { DbOrTx } from "@/lib/db/client";
import { getDb } from "@/lib/db/client";
import { executePrepared } from "@/lib/db/prepared";
import { textArray } from "@/lib/db/array-literal";
import { recordAudit } from "@/lib/audit";
import { actorLabel, assertRole, type Caller } from "@/lib/identity/caller";
import { AppError, notFound, parseOrThrow } from "@/lib/errors";
import { customerName, type ConsentState } from "./decide";
import { resubscribeInput } from "./input";

export { resubscribeInput };

/**
 * The customers' marketing consent as Tillflow keeps it: the record's `acceptsMarketing` (what the
 * shop or its store says) and `customer_consent` (who unsubscribed, when and how; who subscribed
 * them again and why). Every function takes the shop's id and reads or writes that shop only.
 */

type ConsentRow = {
  id: string;
  data: Record<string, unknown>;
  unsubscribed_at: string | null;
  unsubscribed_via: ConsentState["unsubscribedVia"];
};

function toState(row: ConsentRow): ConsentState {
  return {
    id: row.id,
    name: customerName(row.id, row.data),
    acceptsMarketing: row.data.acceptsMarketing === true,
    unsubscribedAt: row.unsubscribed_at ? new Date(row.unsubscribed_at) : null,
    unsubscribedVia: row.unsubscribed_via,
  };
}

/**
 * The shop's customers a message to these addresses reaches (by email, `entities_email_idx`), with
 * their consent: one statement. An address that is no customer's is not listed.
 */
export async function consentOfEmails(
  tx: DbOrTx,
  tenantId: string,
  emails: string[],
): Promise<ConsentState[]> {
  const wanted = [...new Set(emails.map((e) => e.trim().toLowerCase()).filter(Boolean))];
  if (wanted.length === 0) return [];
  const rows = await executePrepared<ConsentRow>(
    sql`select e.id, e.data, c.unsubscribed_at, c.unsubscribed_via
      from entities e
      left join customer_consent c on c.tenant_id = e.tenant_id and c.customer_id = e.id
      where e.tenant_id = ${tenantId}::uuid and e.domain = 'customer'
        and e.email = any(${textArray(wanted)}::text[])
      order by e.created_at, e.id`,
    tx,
  );
  return rows.map(toState);
}

/** One customer's consent, or null when the shop has no such customer. */
export async function consentOfCustomer(
  tx: DbOrTx,
  tenantId: string,
  customerId: string,
): Promise<ConsentState | null> {
  const [row] = await executePrepared<ConsentRow>(
    sql`select e.id, e.data, c.unsubscribed_at, c.unsubscribed_via
      from entities e
      left join customer_consent c on c.tenant_id = e.tenant_id and c.customer_id = e.id
      where e.tenant_id = ${tenantId}::uuid and e.domain = 'customer' and e.id = ${customerId}`,
    tx,
  );
  return row ? toState(row) : null;
}

/**
 * Unsubscribes a customer from marketing (`link`: the customer themself; `store`: their store said
 * so). Returns false when they were unsubscribed already (nothing changes: a second click, a store
 * repeating itself). A store's word counts only if it is newer than the shop's last re-subscribe.
 */
export async function unsubscribe(
  tx: DbOrTx,
  tenantId: string,
  customerId: string,
  via: "link" | "store" | "merchant",
  storeSaidAt: Date | null = null,
): Promise<boolean> {
  const rows = await executePrepared<{ customer_id: string }>(
    sql`insert into customer_consent as c (tenant_id, customer_id, unsubscribed_at, unsubscribed_via, updated_at)
      values (${tenantId}::uuid, ${customerId}, now(), ${via}, now())
      on conflict (tenant_id, customer_id) do update
        set unsubscribed_at = now(), unsubscribed_via = excluded.unsubscribed_via, updated_at = now()
        where c.unsubscribed_at is null
          and (${via} <> 'store' or c.resubscribed_at is null
               or c.resubscribed_at < coalesce(${storeSaidAt?.toISOString() ?? null}::timestamptz, now()))
      returning customer_id`,
    tx,
  );
  return rows.length > 0;
}

/**
 * The shop subscribes a customer again (editors and admins), with a reason, audited as
 * `customer.resubscribed`: clears the unsubscribe and sets `acceptsMarketing`, in one transaction.
 */
export async function resubscribe(
  caller: Caller,
  customerId: string,
  input: unknown,
): Promise<CustomerConsentView> {
  assertRole(caller, "editor");
  const { reason } = parseOrThrow(resubscribeInput, input, "The re-subscribe is invalid");
  const tenantId = caller.tenant.id;
  return getDb().transaction(async (tx) => {
    const current = await consentOfCustomer(tx, tenantId, customerId);
    if (!current) throw notFound(`The customer '${customerId}'`);
    if (current.unsubscribedAt === null && current.acceptsMarketing)
      throw new AppError(409, "conflict", "This customer is subscribed to marketing already.");
    const actor = actorLabel(caller.actor);
    await executePrepared(
      sql`insert into customer_consent as c (tenant_id, customer_id, resubscribed_at, resubscribed_by,
          resubscribe_reason, updated_at)
        values (${tenantId}::uuid, ${customerId}, now(), ${actor}, ${reason}, now())
        on conflict (tenant_id, customer_id) do update
          set unsubscribed_at = null, resubscribed_at = now(), resubscribed_by = excluded.resubscribed_by,
              resubscribe_reason = excluded.resubscribe_reason, updated_at = now()`,
      tx,
    );
    await executePrepared(
      sql`update entities set data = jsonb_set(data, '{acceptsMarketing}', 'true'::jsonb), updated_at = now()
        where tenant_id = ${tenantId}::uuid and domain = 'customer' and id = ${customerId}`,
      tx,
    );
    await recordAudit(tx, caller, {
      action: "customer.resubscribed",
      subjectType: "customer",
      subjectId: customerId,
      detail: {
        reason,
        wasUnsubscribedAt: current.unsubscribedAt?.toISOString() ?? null,
        wasUnsubscribedVia: current.unsubscribedVia,
      },
    });
    return (await customerConsentView(tx, tenantId, customerId))!;
  });
}

/** A customer's consent as the record page and `GET /api/v1/customers/{id}/consent` show it. */
export interface CustomerConsentView {
  customerId: string;
  acceptsMarketing: boolean;
  /** When they unsubscribed (null: subscribed, or never unsubscribed). */
  unsubscribedAt: string | null;
  /** How: `link`, `store` or `merchant`. */
  unsubscribedVia: "link" | "store" | "merchant" | null;
  /** The last re-subscribe by the shop: when, by whom, why. */
  resubscribedAt: string | null;
  resubscribedBy: string | null;
  resubscribeReason: string | null;
}

export async function customerConsentView(
  tx: DbOrTx,
  tenantId: string,
  customerId: string,
): Promise<CustomerConsentView | null> {
  const [row] = await executePrepared<{
    data: Record<string, unknown>;
    unsubscribed_at: string | null;
    unsubscribed_via: CustomerConsentView["unsubscribedVia"];
    resubscribed_at: string | null;
    resubscribed_by: string | null;
    resubscribe_reason: string | null;
  }>(
    sql`select e.data, c.unsubscribed_at, c.unsubscribed_via, c.resubscribed_at, c.resubscribed_by,
        c.resubscribe_reason
      from entities e
      left join customer_consent c on c.tenant_id = e.tenant_id and c.customer_id = e.id
      where e.tenant_id = ${tenantId}::uuid and e.domain = 'customer' and e.id = ${customerId}`,
    tx,
  );
  if (!row) return null;
  const iso = (value: string | null) => (value ? new Date(value).toISOString() : null);
  return {
    customerId,
    acceptsMarketing: row.data.acceptsMarketing === true && row.unsubscribed_at === null,
    unsubscribedAt: iso(row.unsubscribed_at),
    unsubscribedVia: row.unsubscribed_via,
    resubscribedAt: iso(row.resubscribed_at),
    resubscribedBy: row.resubscribed_by,
    resubscribeReason: row.resubscribe_reason,
  };
}
