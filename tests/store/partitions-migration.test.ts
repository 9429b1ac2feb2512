import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { drizzle } from "drizzle-orm/postgres-js";
import { migrate } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import { getRun } from "@/lib/automations/runs/detail";
import { createDatabaseIfMissing } from "@/lib/db/connection";
import { databaseUrl } from "@/lib/db/embedded";
import { MIGRATIONS_FOLDER, migrateDatabase } from "@/lib/migrate";
import { upsertEntity } from "@/lib/entities/service";
import type { WorkerHandle } from "@/worker/run";
import { createShop, type TestShop } from "@/tests/helpers/shop";
import { flow, publishFlow, settledRuns } from "@/tests/helpers/flows";
import { startTestWorker } from "@/tests/helpers/worker";

// Migration 0011 partitions run history. This file builds a database as it was before it (every
// migration up to 0010), fills it with runs, steps, waits, deliveries, an email and a task, applies
// 0011, and checks the rows, the keys and the constraints, then runs a flow on it with a real worker.
// The database's name has the prefix the global teardown sweeps.
const serverUrl = inject("serverUrl");
const name = `t${process.ppid}_pre0011_${Date.now().toString(36)}`;
const url = databaseUrl(serverUrl, name);
let db: postgres.Sql;

/** A copy of drizzle/ whose journal stops before `tag`: drizzle's migrator applies only those. */
function migrationsBefore(tag: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "migrations-"));
  fs.cpSync(MIGRATIONS_FOLDER, dir, { recursive: true });
  const journalPath = path.join(dir, "meta", "_journal.json");
  const journal = JSON.parse(fs.readFileSync(journalPath, "utf8")) as { entries: { tag: string }[] };
  journal.entries = journal.entries.filter((e) => e.tag < tag);
  fs.writeFileSync(journalPath, JSON.stringify(journal));
  return dir;
}

const TENANT = "00000000-0000-4000-8000-00000000000a";
const AUTOMATION = "00000000-0000-4000-8000-0000000000a1";
const RUN_DONE = "3f2b7c1e-9d4a-4c6b-8e21-5a7f0c9d1b01";
const RUN_WAITING = "c81d4e2f-1a3b-4c5d-9e6f-7a8b9c0d1e02";
// An old random id that happens to start with the new ids' prefix: it gets the month its MMMM names.
const RUN_STRAY = "7111f10e-0123-4abc-8def-0123456789ab";

beforeAll(async () => {
  await createDatabaseIfMissing(serverUrl, name);
  const pre = postgres(url, { max: 1, onnotice: () => {} });
  const folder = migrationsBefore("0011");
  await migrate(drizzle(pre), { migrationsFolder: folder });
  fs.rmSync(folder, { recursive: true, force: true });
  const graph = JSON.stringify({ nodes: [], edges: [] });
  await pre.unsafe(`
    insert into tenants (id, slug, name) values ('${TENANT}', 'pre', 'Pre');
    insert into automations (id, tenant_id, name, status, version, draft_graph, active_graph)
      values ('${AUTOMATION}', '${TENANT}', 'Old flow', 'active', 1, '${graph}', '${graph}');
    insert into automation_runs (id, tenant_id, automation_id, automation_version, status, event_id, trigger_node_id,
      event, domain, entity_id, legs, created_at, finished_at)
    select id::uuid, '${TENANT}', '${AUTOMATION}', 1, status, event_id, 't',
      jsonb_build_object('id', event_id, 'type', 'order.created', 'domain', 'order', 'entityId', 'o1',
        'entityStatus', null, 'payload', '{}'::jsonb, 'occurredAt', now()),
      'order', 'o1', 1, now() - interval '40 days', case when status = 'succeeded' then now() - interval '40 days' end
    from (values ('${RUN_DONE}', 'succeeded', 'evt-1'), ('${RUN_WAITING}', 'waiting', 'evt-2'),
                 ('${RUN_STRAY}', 'succeeded', 'evt-3')) v(id, status, event_id);
    insert into automation_run_steps (tenant_id, run_id, node_id, node_type, category, status, leg)
    select '${TENANT}', r.id, n, 'auto.action.add_tag', 'action', 'success', 1
    from automation_runs r, (values ('a'), ('b')) s(n);
    insert into automation_run_waits (tenant_id, run_id, automation_id, automation_version, node_id, node_type, leg,
      event, kind, resume_at)
      values ('${TENANT}', '${RUN_WAITING}', '${AUTOMATION}', 1, 'w', 'auto.control.wait', 1, '{}', 'delay', now() + interval '1 day');
    insert into action_deliveries (tenant_id, run_id, node_id, leg, node_type, dedupe_key, status, request)
      values ('${TENANT}', '${RUN_DONE}', 'a', 1, 'auto.action.add_tag', '${RUN_DONE}:a:1', 'delivered', '{}');
    insert into outbox_emails (tenant_id, run_id, "to", subject, body_html, status)
      values ('${TENANT}', '${RUN_DONE}', 'a@example.com', 'Hi', 'Hi', 'stored');
    insert into staff_tasks (tenant_id, run_id, title) values ('${TENANT}', '${RUN_DONE}', 'Check');
  `);
  await pre.end();
  await migrateDatabase(url);
  // The app and the worker use the migrated database from here on.
  process.env.DATABASE_URL = url;
  db = postgres(url, { max: 1, onnotice: () => {} });
});

afterAll(async () => {
  await db.end();
});

describe("migration 0011 on a database with run history", () => {
  test("every run, step and link is still there, in the partitions its id names", async () => {
    const runs = await db<{ id: string; status: string; partition: string }[]>`
      select id::text, status, tableoid::regclass::text as partition from automation_runs order by id`;
    expect(runs).toEqual([
      { id: RUN_DONE, status: "succeeded", partition: "automation_runs_legacy_lo" },
      { id: RUN_STRAY, status: "succeeded", partition: "automation_runs_y1994m04" },
      { id: RUN_WAITING, status: "waiting", partition: "automation_runs_legacy_hi" },
    ]);
    const steps = await db<{ n: number }[]>`select count(*)::int as n from automation_run_steps`;
    expect(steps[0]!.n).toBe(6);
    const links = await db<
      { waits: number; deliveries: number; emails: number; tasks: number; keys: number }[]
    >`
      select (select count(*)::int from automation_run_waits where run_id = ${RUN_WAITING}) as waits,
             (select count(*)::int from action_deliveries where run_id = ${RUN_DONE}) as deliveries,
             (select count(*)::int from outbox_emails where run_id = ${RUN_DONE}) as emails,
             (select count(*)::int from staff_tasks where run_id = ${RUN_DONE}) as tasks,
             (select count(*)::int from automation_run_keys) as keys`;
    expect(links[0]).toEqual({ waits: 1, deliveries: 1, emails: 1, tasks: 1, keys: 3 });
    // A run made before the migration is read by id as before.
    const run = await getRun(TENANT, RUN_DONE);
    expect(run).toMatchObject({ id: RUN_DONE, status: "succeeded" });
    expect(run?.steps).toHaveLength(2);
  });

  test("this month and next have partitions, and a new run id names this month", async () => {
    const [row] = await db<{ id: string; now: string; next: string | null; current: string | null }[]>`
      select automation_run_id()::text as id,
        to_char(now() at time zone 'UTC', '"automation_runs_y"YYYY"m"MM') as now,
        to_regclass(to_char(now() at time zone 'UTC', '"automation_runs_y"YYYY"m"MM'))::text as current,
        to_regclass(to_char((now() + interval '1 month') at time zone 'UTC', '"automation_run_steps_y"YYYY"m"MM'))::text as next`;
    expect(row!.current).toBe(row!.now);
    expect(row!.next).not.toBeNull();
    expect(row!.id).toMatch(/^7111f10e-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  test("one run per automation per event still holds, and so does every foreign key", async () => {
    // The same event again, as a second delivery of it would: skipped, like "on conflict do nothing".
    const again = await db`
      insert into automation_runs (tenant_id, automation_id, automation_version, event_id, trigger_node_id, event, domain)
      values (${TENANT}, ${AUTOMATION}, 1, 'evt-1', 't', '{}', 'order')
      on conflict do nothing returning id`;
    expect(again).toHaveLength(0);
    const fresh = await db<{ id: string }[]>`
      insert into automation_runs (tenant_id, automation_id, automation_version, event_id, trigger_node_id, event, domain)
      values (${TENANT}, ${AUTOMATION}, 1, 'evt-new', 't', '{}', 'order') returning id::text`;
    expect(fresh).toHaveLength(1);
    // Two statements racing for one event: the second waits for the first, then skips.
    const a = postgres(url, { max: 1, onnotice: () => {} });
    const b = postgres(url, { max: 1, onnotice: () => {} });
    const insert = (sql: postgres.Sql) =>
      sql.begin(async (tx) => {
        const rows = await tx`
          insert into automation_runs (tenant_id, automation_id, automation_version, event_id, trigger_node_id, event, domain)
          values (${TENANT}, ${AUTOMATION}, 1, 'evt-race', 't', '{}', 'order') on conflict do nothing returning id`;
        await tx`select pg_sleep(0.2)`;
        return rows.length;
      });
    const counts = await Promise.all([insert(a), insert(b)]);
    await Promise.all([a.end(), b.end()]);
    expect(counts.sort()).toEqual([0, 1]);

    await expect(
      db`insert into automation_run_steps (tenant_id, run_id, node_id, node_type, category, status, leg)
         values (${TENANT}, automation_run_id(), 'x', 'auto.action.add_tag', 'action', 'success', 1)`,
    ).rejects.toMatchObject({ code: "23503" });
    await expect(
      db`insert into action_deliveries (tenant_id, run_id, node_id, leg, node_type, dedupe_key, status, request)
         values (${TENANT}, automation_run_id(), 'a', 1, 't', 'k', 'delivered', '{}')`,
    ).rejects.toMatchObject({ code: "23503" });
    await expect(
      db`insert into automation_run_steps (tenant_id, run_id, node_id, node_type, category, status, leg)
         values (${TENANT}, ${fresh[0]!.id}, 'a', 't', 'action', 'success', 1),
                (${TENANT}, ${fresh[0]!.id}, 'a', 't', 'action', 'success', 1)`,
    ).rejects.toMatchObject({ code: "23505" });

    // Deleting a run still takes its steps, waits and deliveries with it, clears its links, and
    // frees its event for a new run.
    await db`delete from automation_runs where id = ${RUN_DONE}`;
    const left = await db<{ steps: number; deliveries: number; emails: number; keys: number }[]>`
      select (select count(*)::int from automation_run_steps where run_id = ${RUN_DONE}) as steps,
             (select count(*)::int from action_deliveries where run_id = ${RUN_DONE}) as deliveries,
             (select count(*)::int from outbox_emails where run_id is null) as emails,
             (select count(*)::int from automation_run_keys where event_id = 'evt-1') as keys`;
    expect(left[0]).toEqual({ steps: 0, deliveries: 0, emails: 1, keys: 0 });
  });

  describe("the engine on the migrated database", () => {
    let shop: TestShop;
    let worker: WorkerHandle;
    beforeAll(async () => {
      shop = await createShop();
      worker = await startTestWorker(url);
    });
    afterAll(async () => {
      await worker.stop();
    });

    //  order_created ──▶ add_tag(seen) ──▶ add_note
    test("runs a published flow end to end with a real worker", async () => {
      const id = await publishFlow(
        shop.keys.editor,
        "After partitioning",
        flow(
          [
            { id: "t", type: "auto.trigger.order_created" },
            { id: "tag", type: "auto.action.add_tag", params: { tag: "seen" } },
            { id: "note", type: "auto.action.add_note", params: { body: "Seen" } },
          ],
          [
            ["t", "tag"],
            ["tag", "note"],
          ],
        ),
      );
      await upsertEntity(
        shop.tenant.id,
        "order",
        "o-part",
        { number: "#1", status: "pending", total: 1, currency: "EUR" },
        "test",
      );
      const [run] = await settledRuns(id);
      expect(run).toMatchObject({ status: "succeeded" });
      expect(run!.id).toMatch(/^7111f10e-/);
      const detail = await getRun(shop.tenant.id, run!.id);
      expect(detail?.steps.map((s) => [s.nodeId, s.status])).toEqual([
        ["tag", "success"],
        ["note", "success"],
      ]);
    });
  });
});
