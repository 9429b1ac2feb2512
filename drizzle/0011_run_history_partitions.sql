-- Run history partitioned by month (hand-written: drizzle-kit cannot express partitioning; the
-- snapshot beside it is drizzle-kit's for the schema in lib/db/schema, see
-- lib/db/schema/PARTITIONS.md for what the schema files cannot say).
--
-- automation_runs is partitioned by RANGE (id) and automation_run_steps by RANGE (run_id), with the
-- same bounds: a run id made by automation_run_id() reads 7111f10e-MMMM-8xxx-yxxx-xxxxxxxxxxxx,
-- MMMM the month it was made in (months since January 1970, hex). Ids made before this migration
-- (random v4) stay as they are, in the two "legacy" partitions around the 7111f10e prefix; the
-- few that happen to start with it get the month partition their MMMM names.
-- Applies to a database with data: the rows are copied into the new tables in this transaction.

-- Months since January 1970 (UTC) of a moment.
CREATE FUNCTION automation_run_month(at timestamptz) RETURNS int LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  select ((extract(year from at at time zone 'UTC')::int - 1970) * 12
    + extract(month from at at time zone 'UTC')::int - 1)
$$;--> statement-breakpoint
-- The lowest run id of a month: the month's partitions hold [floor(m), floor(m + 1)).
CREATE FUNCTION automation_run_month_floor(month int) RETURNS uuid LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  select ('7111f10e-' || lpad(to_hex(month), 4, '0') || '-0000-0000-000000000000')::uuid
$$;--> statement-breakpoint
-- The first moment of a month (UTC).
CREATE FUNCTION automation_run_month_start(month int) RETURNS timestamptz LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  select make_timestamptz(1970 + month / 12, month % 12 + 1, 1, 0, 0, 0, 'UTC')
$$;--> statement-breakpoint
-- A new run id (a UUIDv8: 74 random bits) in the month of `at` (default: the transaction's now(),
-- the same moment created_at defaults to, so a run's partition is its created_at month).
CREATE FUNCTION automation_run_id(at timestamptz DEFAULT now()) RETURNS uuid LANGUAGE sql VOLATILE PARALLEL SAFE AS $$
  select ('7111f10e-' || lpad(to_hex(automation_run_month(at)), 4, '0') || '-8' || substr(r, 1, 3) || '-'
    || substr(r, 17, 4) || '-' || substr(r, 21, 12))::uuid
  from (select replace(gen_random_uuid()::text, '-', '') as r) g
$$;--> statement-breakpoint

-- The foreign keys to the old table go with it; they are made again below, to the new one.
ALTER TABLE "automation_run_waits" DROP CONSTRAINT "automation_run_waits_run_id_automation_runs_id_fk";--> statement-breakpoint
ALTER TABLE "action_deliveries" DROP CONSTRAINT "action_deliveries_run_id_automation_runs_id_fk";--> statement-breakpoint
ALTER TABLE "outbox_emails" DROP CONSTRAINT "outbox_emails_run_id_automation_runs_id_fk";--> statement-breakpoint
ALTER TABLE "staff_tasks" DROP CONSTRAINT "staff_tasks_run_id_automation_runs_id_fk";--> statement-breakpoint
ALTER TABLE "automation_run_steps" DROP CONSTRAINT "automation_run_steps_run_id_automation_runs_id_fk";--> statement-breakpoint
ALTER TABLE "automation_runs" RENAME TO "automation_runs_unpartitioned";--> statement-breakpoint
ALTER TABLE "automation_run_steps" RENAME TO "automation_run_steps_unpartitioned";--> statement-breakpoint
-- Frees the names of the old tables' keys and indexes for the new tables'.
ALTER TABLE "automation_runs_unpartitioned" DROP CONSTRAINT "automation_runs_pkey";--> statement-breakpoint
ALTER TABLE "automation_runs_unpartitioned" DROP CONSTRAINT "automation_runs_event_unique";--> statement-breakpoint
ALTER TABLE "automation_runs_unpartitioned" DROP CONSTRAINT "automation_runs_automation_id_automations_id_fk";--> statement-breakpoint
DROP INDEX "automation_runs_tenant_idx";--> statement-breakpoint
DROP INDEX "automation_runs_automation_idx";--> statement-breakpoint
DROP INDEX "automation_runs_status_idx";--> statement-breakpoint
DROP INDEX "automation_runs_automation_status_idx";--> statement-breakpoint
DROP INDEX "automation_runs_entity_idx";--> statement-breakpoint
DROP INDEX "automation_runs_active_idx";--> statement-breakpoint
DROP INDEX "automation_runs_rerun_of_idx";--> statement-breakpoint
ALTER TABLE "automation_run_steps_unpartitioned" DROP CONSTRAINT "automation_run_steps_pkey";--> statement-breakpoint
ALTER TABLE "automation_run_steps_unpartitioned" DROP CONSTRAINT "automation_run_steps_node_leg_unique";--> statement-breakpoint

-- LIKE keeps every column (and any added by a migration before this one) in the same order.
CREATE TABLE "automation_runs" (LIKE "automation_runs_unpartitioned" INCLUDING ALL EXCLUDING INDEXES) PARTITION BY RANGE ("id");--> statement-breakpoint
ALTER TABLE "automation_runs" ALTER COLUMN "id" SET DEFAULT automation_run_id();--> statement-breakpoint
CREATE TABLE "automation_run_steps" (LIKE "automation_run_steps_unpartitioned" INCLUDING ALL EXCLUDING INDEXES) PARTITION BY RANGE ("run_id");--> statement-breakpoint
CREATE TABLE "automation_runs_legacy_lo" PARTITION OF "automation_runs" FOR VALUES FROM (MINVALUE) TO ('7111f10e-0000-0000-0000-000000000000');--> statement-breakpoint
CREATE TABLE "automation_runs_legacy_hi" PARTITION OF "automation_runs" FOR VALUES FROM ('7111f10f-0000-0000-0000-000000000000') TO (MAXVALUE);--> statement-breakpoint
CREATE TABLE "automation_run_steps_legacy_lo" PARTITION OF "automation_run_steps" FOR VALUES FROM (MINVALUE) TO ('7111f10e-0000-0000-0000-000000000000');--> statement-breakpoint
CREATE TABLE "automation_run_steps_legacy_hi" PARTITION OF "automation_run_steps" FOR VALUES FROM ('7111f10f-0000-0000-0000-000000000000') TO (MAXVALUE);--> statement-breakpoint

-- Makes month `month`'s two partitions (runs and their steps) unless they exist. Returns whether
-- it made any.
CREATE FUNCTION automation_run_partition_create(month int) RETURNS boolean LANGUAGE plpgsql AS $$
declare
  suffix text := to_char(automation_run_month_start(month) at time zone 'UTC', '"y"YYYY"m"MM');
  lo uuid := automation_run_month_floor(month);
  hi uuid := automation_run_month_floor(month + 1);
  made boolean := false;
begin
  if to_regclass('automation_runs_' || suffix) is null then
    execute format('create table %I partition of automation_runs for values from (%L) to (%L)',
      'automation_runs_' || suffix, lo, hi);
    made := true;
  end if;
  if to_regclass('automation_run_steps_' || suffix) is null then
    execute format('create table %I partition of automation_run_steps for values from (%L) to (%L)',
      'automation_run_steps_' || suffix, lo, hi);
    made := true;
  end if;
  return made;
end $$;--> statement-breakpoint
-- Makes the partitions of the month of `at` and of the month after, unless they exist: called by
-- this migration, the reaper (every 5 minutes) and the purge, so a month's partitions are always
-- there a month before its first run. Returns how many months got partitions.
CREATE FUNCTION automation_run_partitions_ensure(at timestamptz DEFAULT now()) RETURNS int LANGUAGE plpgsql AS $$
declare
  m int := automation_run_month(at);
  made int := 0;
begin
  if to_regclass('automation_runs_' || to_char(automation_run_month_start(m + 1) at time zone 'UTC', '"y"YYYY"m"MM')) is not null
    and to_regclass('automation_run_steps_' || to_char(automation_run_month_start(m + 1) at time zone 'UTC', '"y"YYYY"m"MM')) is not null
    and to_regclass('automation_runs_' || to_char(automation_run_month_start(m) at time zone 'UTC', '"y"YYYY"m"MM')) is not null
    and to_regclass('automation_run_steps_' || to_char(automation_run_month_start(m) at time zone 'UTC', '"y"YYYY"m"MM')) is not null then
    return 0;
  end if;
  -- Two workers' reapers may get here at once: one makes the tables, the other then finds them.
  perform pg_advisory_xact_lock(hashtext('automation_run_partitions'));
  for i in 0..1 loop
    if automation_run_partition_create(m + i) then made := made + 1; end if;
  end loop;
  return made;
end $$;--> statement-breakpoint
SELECT automation_run_partitions_ensure();--> statement-breakpoint
-- An old (random) id that happens to start with the prefix goes to the partition its MMMM names.
SELECT automation_run_partition_create(('x' || substr(id::text, 10, 4))::bit(16)::int)
FROM (SELECT DISTINCT id FROM "automation_runs_unpartitioned" WHERE id::text LIKE '7111f10e-%') s;--> statement-breakpoint

INSERT INTO "automation_runs" SELECT * FROM "automation_runs_unpartitioned";--> statement-breakpoint
INSERT INTO "automation_run_steps" SELECT * FROM "automation_run_steps_unpartitioned";--> statement-breakpoint
DROP TABLE "automation_run_steps_unpartitioned";--> statement-breakpoint
DROP TABLE "automation_runs_unpartitioned";--> statement-breakpoint

ALTER TABLE "automation_runs" ADD CONSTRAINT "automation_runs_pkey" PRIMARY KEY ("id");--> statement-breakpoint
ALTER TABLE "automation_runs" ADD CONSTRAINT "automation_runs_automation_id_automations_id_fk" FOREIGN KEY ("automation_id") REFERENCES "public"."automations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "automation_runs_tenant_idx" ON "automation_runs" USING btree ("tenant_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "automation_runs_automation_idx" ON "automation_runs" USING btree ("tenant_id","automation_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "automation_runs_status_idx" ON "automation_runs" USING btree ("tenant_id","status","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "automation_runs_automation_status_idx" ON "automation_runs" USING btree ("tenant_id","automation_id","status","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "automation_runs_entity_idx" ON "automation_runs" USING btree ("tenant_id","domain","entity_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "automation_runs_active_idx" ON "automation_runs" USING btree ("status","updated_at") WHERE "automation_runs"."status" in ('queued', 'running');--> statement-breakpoint
CREATE INDEX "automation_runs_rerun_of_idx" ON "automation_runs" USING btree ("rerun_of") WHERE "automation_runs"."rerun_of" is not null;--> statement-breakpoint
ALTER TABLE "automation_run_steps" ADD CONSTRAINT "automation_run_steps_pkey" PRIMARY KEY ("id","run_id");--> statement-breakpoint
ALTER TABLE "automation_run_steps" ADD CONSTRAINT "automation_run_steps_node_leg_unique" UNIQUE ("run_id","node_id","leg");--> statement-breakpoint
-- Every foreign key to runs references its primary key (id), which is the partition key: allowed,
-- and kept. A month's partition is dropped only once nothing refers to its runs (see the purge).
ALTER TABLE "automation_run_steps" ADD CONSTRAINT "automation_run_steps_run_id_automation_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."automation_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "automation_run_waits" ADD CONSTRAINT "automation_run_waits_run_id_automation_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."automation_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "action_deliveries" ADD CONSTRAINT "action_deliveries_run_id_automation_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."automation_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outbox_emails" ADD CONSTRAINT "outbox_emails_run_id_automation_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."automation_runs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "staff_tasks" ADD CONSTRAINT "staff_tasks_run_id_automation_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."automation_runs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "outbox_emails_run_idx" ON "outbox_emails" USING btree ("run_id") WHERE "outbox_emails"."run_id" is not null;--> statement-breakpoint
CREATE INDEX "staff_tasks_run_idx" ON "staff_tasks" USING btree ("run_id") WHERE "staff_tasks"."run_id" is not null;--> statement-breakpoint

-- One run per automation per event, across every partition (a unique key on a partitioned table
-- must contain the partition key, and (automation_id, event_id) does not).
CREATE TABLE "automation_run_keys" (
	"automation_id" uuid NOT NULL,
	"event_id" text NOT NULL,
	"run_id" uuid NOT NULL,
	CONSTRAINT "automation_run_keys_pkey" PRIMARY KEY("automation_id","event_id")
);--> statement-breakpoint
ALTER TABLE "automation_run_keys" ADD CONSTRAINT "automation_run_keys_automation_id_automations_id_fk" FOREIGN KEY ("automation_id") REFERENCES "public"."automations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
INSERT INTO "automation_run_keys" (automation_id, event_id, run_id) SELECT automation_id, event_id, id FROM "automation_runs";--> statement-breakpoint
CREATE INDEX "automation_run_keys_run_idx" ON "automation_run_keys" USING btree ("run_id");--> statement-breakpoint
-- Claims the run's key in the run's own statement; a taken key skips the run, as "on conflict do
-- nothing" did with the old unique constraint (a concurrent insert of the same key waits for the
-- first to commit or roll back, as a unique index makes it).
CREATE FUNCTION automation_runs_claim_key() RETURNS trigger LANGUAGE plpgsql AS $$
begin
  insert into automation_run_keys (automation_id, event_id, run_id)
  values (new.automation_id, new.event_id, new.id)
  on conflict do nothing;
  if not found then
    return null;
  end if;
  return new;
end $$;--> statement-breakpoint
CREATE TRIGGER "automation_runs_claim_key" BEFORE INSERT ON "automation_runs" FOR EACH ROW EXECUTE FUNCTION automation_runs_claim_key();--> statement-breakpoint
-- A deleted run frees its key (a dropped partition's keys are deleted by the purge).
CREATE FUNCTION automation_runs_free_key() RETURNS trigger LANGUAGE plpgsql AS $$
begin
  delete from automation_run_keys where run_id = old.id;
  return null;
end $$;--> statement-breakpoint
CREATE TRIGGER "automation_runs_free_key" AFTER DELETE ON "automation_runs" FOR EACH ROW EXECUTE FUNCTION automation_runs_free_key();
