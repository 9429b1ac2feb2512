-- How many actions a settled run took (SPEC §2 "Settling": 0 is "Nothing to do"). Adding a
-- nullable column to the partitioned parent adds it to every month's partition, without a rewrite.
ALTER TABLE "automation_runs" ADD COLUMN "actions_taken" integer;--> statement-breakpoint
-- Settled runs so far, counted as settle counts them: every action step's last attempt.
UPDATE "automation_runs" r SET "actions_taken" = (
  select count(*)::int from "automation_run_steps" s
  where s.run_id = r.id and s.category = 'action' and not coalesce(s.output ? 'retry', false)
) WHERE r.status in ('succeeded', 'partial', 'failed');
