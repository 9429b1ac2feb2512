ALTER TABLE "automation_runs" ADD COLUMN "rerun_of" uuid;--> statement-breakpoint
ALTER TABLE "automation_runs" ADD COLUMN "rerun_from" text;--> statement-breakpoint
CREATE INDEX "automation_runs_rerun_of_idx" ON "automation_runs" USING btree ("rerun_of") WHERE "automation_runs"."rerun_of" is not null;