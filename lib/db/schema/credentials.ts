import { sql } from "drizzle-orm";
import { pgEnum, pgTable, text, timestamp, unique, uuid } from "drizzle-orm/pg-core";
import { CREDENTIAL_KINDS } from "../../credentials/kinds";
import { tenants } from "./tenants";

export const credentialKindEnum = pgEnum("credential_kind", CREDENTIAL_KINDS);

/**
 * A shop's secrets (SPEC §2 "Credentials"): graphs refer to them by id, never hold the value.
 * `value` is sealed with AES-256-GCM under TILLFLOW_SECRET_KEY (lib/credentials/secret-box.ts,
 * the shop's id as associated data); `last4` is all a reply ever shows of it.
 */
export const credentials = pgTable(
  "credentials",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: uuid("tenant_id")
      .notNull()
      .references(() => tenants.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    kind: credentialKindEnum("kind").notNull(),
    value: text("value").notNull(),
    last4: text("last4").notNull(),
    createdBy: text("created_by").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    rotatedAt: timestamp("rotated_at", { withTimezone: true }),
    /**
     * The hosts the credential may be sent to (lib/credentials/hosts.ts): exact (`api.example.com`)
     * or `*.example.com` (its subdomains only), lower-cased. Empty: nowhere, until an admin sets them.
     */
    allowedHosts: text("allowed_hosts")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
  },
  (t) => [unique("credentials_tenant_name_key").on(t.tenantId, t.name)],
);
