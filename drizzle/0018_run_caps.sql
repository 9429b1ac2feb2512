ALTER TABLE "automation_run_waits" ADD COLUMN "reminded_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "automation_run_waits" ADD COLUMN "escalated_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "automation_runs" ADD COLUMN "held_reason" text;--> statement-breakpoint
ALTER TABLE "automation_runs" ADD COLUMN "released_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "automation_runs" ADD COLUMN "released_by" text;--> statement-breakpoint
ALTER TABLE "automations" ADD COLUMN "caps" jsonb;--> statement-breakpoint
ALTER TABLE "automations" ADD COLUMN "caps_revision" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "automation_run_waits_pending_approvals_idx" ON "automation_run_waits" USING btree ("created_at") WHERE "automation_run_waits"."status" = 'pending' and "automation_run_waits"."kind" = 'approval';