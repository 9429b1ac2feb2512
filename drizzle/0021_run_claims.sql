ALTER TABLE "automation_run_waits" ADD COLUMN "claim" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "automation_runs" ADD COLUMN "claim" integer DEFAULT 0 NOT NULL;