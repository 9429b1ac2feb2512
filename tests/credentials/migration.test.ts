import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { drizzle } from "drizzle-orm/postgres-js";
import { migrate } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";
import { afterAll, beforeAll, expect, inject, test } from "vitest";
import { createDatabaseIfMissing } from "@/lib/db/connection";
import { databaseUrl } from "@/lib/db/embedded";
import { migrateDatabase, MIGRATIONS_FOLDER } from "@/lib/migrate";
import { open } from "@/lib/credentials/secret-box";

/**
 * The move of plain secrets into credentials, on a database made with the schema before them
 * (every migration up to 0011), holding secrets the way that release stored them.
 */

const serverUrl = inject("serverUrl");
const name = `tmig_${crypto.randomBytes(5).toString("hex")}`;
let url: string;
let sql: postgres.Sql;

const WEBHOOK_SECRET = "whsec-old-release-Hook";
const BEARER = "Bearer old-release-token-B3ar";
const SENT = "Bearer sent-before-the-move-S3nt";

/** The migrations folder as the previous release shipped it: up to `last`. */
function previousMigrations(last: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tillflow-prev-"));
  fs.cpSync(MIGRATIONS_FOLDER, dir, { recursive: true });
  const journalFile = path.join(dir, "meta/_journal.json");
  const journal = JSON.parse(fs.readFileSync(journalFile, "utf8")) as { entries: { tag: string }[] };
  const keep = journal.entries.findIndex((e) => e.tag === last) + 1;
  expect(keep).toBeGreaterThan(0);
  journal.entries = journal.entries.slice(0, keep);
  fs.writeFileSync(journalFile, JSON.stringify(journal));
  return dir;
}

beforeAll(async () => {
  await createDatabaseIfMissing(serverUrl, name);
  url = databaseUrl(serverUrl, name);
  sql = postgres(url, { max: 1, onnotice: () => {} });
  await migrate(drizzle(sql), { migrationsFolder: previousMigrations("0011_run_history_partitions") });

  const [tenant] = await sql<{ id: string }[]>`
    insert into tenants (slug, name) values ('old-shop', 'Old Shop') returning id`;
  const graph = {
    nodes: [
      {
        id: "in",
        type: "auto.trigger.webhook",
        params: { token: "tok_old_release_12345", secret: WEBHOOK_SECRET },
      },
      {
        id: "call",
        type: "auto.action.http_request",
        params: {
          url: "https://example.com/x",
          method: "POST",
          headers: { Authorization: BEARER, "X-Trace": "{event.id}" },
        },
      },
    ],
    edges: [{ id: "e1", source: "in", sourceHandle: "out", target: "call" }],
  };
  const [automation] = await sql<{ id: string }[]>`
    insert into automations (tenant_id, name, status, version, draft_graph, active_graph, created_by)
    values (${tenant!.id}, 'Old flow', 'active', 2, ${JSON.stringify(graph)}::jsonb, ${JSON.stringify(graph)}::jsonb, 'old@shop.test')
    returning id`;
  for (const version of [1, 2])
    await sql`
      insert into automation_versions (automation_id, version, tenant_id, name, graph, note, author, in_flight_policy)
      values (${automation!.id}, ${version}, ${tenant!.id}, 'Old flow', ${JSON.stringify(graph)}::jsonb, '', 'old@shop.test', 'cancel')`;
  await sql`
    insert into automation_hook_tokens (token, tenant_id, automation_id, node_id, secret)
    values ('tok_old_release_12345', ${tenant!.id}, ${automation!.id}, 'in', ${WEBHOOK_SECRET})`;
  const [run] = await sql<{ id: string }[]>`
    insert into automation_runs (tenant_id, automation_id, automation_version, status, event_id, trigger_node_id, event, domain)
    values (${tenant!.id}, ${automation!.id}, 2, 'succeeded', 'ev-1', 'in', ${JSON.stringify({ type: "webhook.received" })}::jsonb, 'webhook')
    returning id`;
  await sql`
    insert into action_deliveries (tenant_id, run_id, node_id, leg, node_type, dedupe_key, status, request)
    values (${tenant!.id}, ${run!.id}, 'call', 1, 'auto.action.http_request', 'k-1', 'succeeded',
      ${JSON.stringify({ url: "https://example.com/x", method: "POST", headers: { authorization: SENT, "x-trace": "ev-1" }, body: null, timeoutMs: 10000 })}::jsonb)`;
}, 120_000);

afterAll(async () => {
  await sql.end();
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`drop database if exists "${name}" with (force)`);
  await admin.end();
});

async function tablesContaining(needle: string): Promise<string[]> {
  const tables = await sql<{ name: string }[]>`
    select format('%I.%I', schemaname, tablename) as name from pg_tables where schemaname = 'public'`;
  const found: string[] = [];
  for (const { name: table } of tables) {
    const [row] = await sql.unsafe<{ n: number }[]>(
      `select count(*)::int as n from ${table} t where t::text like $1`,
      [`%${needle}%`],
    );
    if (row!.n > 0) found.push(table);
  }
  return found;
}

test("migrating moves every plain secret into a credential, leaves references, and keeps no value", async () => {
  expect(await tablesContaining("old-release-token")).not.toEqual([]);
  await migrateDatabase(url);

  for (const needle of [WEBHOOK_SECRET, "old-release-token", "sent-before-the-move"])
    expect(await tablesContaining(needle), needle).toEqual([]);

  const creds = await sql<
    { id: string; name: string; kind: string; value: string; tenant_id: string; last4: string }[]
  >`
    select id, name, kind::text, value, tenant_id, last4 from credentials order by name`;
  // One credential per distinct secret, however many snapshots held it.
  expect(creds.map((c) => [c.kind, c.last4])).toEqual(
    expect.arrayContaining([
      ["webhook_secret", "Hook"],
      ["http_header", "B3ar"],
      ["http_header", "S3nt"],
    ]),
  );
  expect(creds).toHaveLength(3);
  const byLast4 = new Map(creds.map((c) => [c.last4, c]));
  expect(open(byLast4.get("B3ar")!.value, byLast4.get("B3ar")!.tenant_id)).toBe(`Authorization: ${BEARER}`);

  const [automation] = await sql<
    { draft_graph: { nodes: { id: string; params: Record<string, unknown> }[] } }[]
  >`
    select draft_graph from automations`;
  const params = Object.fromEntries(automation!.draft_graph.nodes.map((n) => [n.id, n.params]));
  expect(params.in).toEqual({ token: "tok_old_release_12345", secretCredentialId: byLast4.get("Hook")!.id });
  expect(params.call).toMatchObject({
    headers: { "X-Trace": "{event.id}" },
    auth: { credentialId: byLast4.get("B3ar")!.id },
  });
  const versions = await sql<{ graph: unknown }[]>`select graph from automation_versions`;
  for (const v of versions) expect(JSON.stringify(v.graph)).toContain(byLast4.get("B3ar")!.id);
  const [hook] = await sql<{ secret: string | null; secret_credential_id: string }[]>`
    select secret, secret_credential_id from automation_hook_tokens`;
  expect(hook).toEqual({ secret: null, secret_credential_id: byLast4.get("Hook")!.id });
  const [delivery] = await sql<{ request: Record<string, unknown> }[]>`select request from action_deliveries`;
  expect(delivery!.request).toMatchObject({
    headers: { "x-trace": "ev-1" },
    credentialId: byLast4.get("S3nt")!.id,
  });

  // The move is recorded as done: a second start neither scans nor moves anything.
  const [move] = await sql<{ name: string }[]>`select name from data_moves`;
  expect(move?.name).toBe("secrets-to-credentials");
  await migrateDatabase(url);
  const [count] = await sql<{ n: number }[]>`select count(*)::int as n from credentials`;
  expect(count!.n).toBe(3);
}, 120_000);
