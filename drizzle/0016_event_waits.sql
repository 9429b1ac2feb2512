CREATE TABLE "event_match_paths" (
	"tenant_id" uuid NOT NULL,
	"event_type" text NOT NULL,
	"path" text NOT NULL,
	CONSTRAINT "event_match_paths_pkey" PRIMARY KEY("tenant_id","event_type","path")
);
--> statement-breakpoint
ALTER TABLE "automation_run_waits" ADD COLUMN "match_event" text;--> statement-breakpoint
ALTER TABLE "automation_run_waits" ADD COLUMN "match_key" text;--> statement-breakpoint
ALTER TABLE "automation_run_waits" ADD COLUMN "woken_event" jsonb;--> statement-breakpoint
CREATE INDEX "events_type_idx" ON "events" USING btree ("tenant_id","type","created_at");--> statement-breakpoint
CREATE INDEX "automation_run_waits_event_match_idx" ON "automation_run_waits" USING btree ("tenant_id","match_event","match_key") WHERE "automation_run_waits"."status" = 'pending' and "automation_run_waits"."kind" = 'event';