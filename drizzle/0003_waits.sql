CREATE TABLE "automation_run_waits" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"run_id" uuid NOT NULL,
	"automation_id" uuid NOT NULL,
	"automation_version" integer NOT NULL,
	"node_id" text NOT NULL,
	"node_type" text NOT NULL,
	"step_id" uuid NOT NULL,
	"leg" integer NOT NULL,
	"resume_leg" integer,
	"event" jsonb NOT NULL,
	"kind" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"reason" text,
	"resume_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"resolved_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "automation_runs" ADD COLUMN "resume_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "automation_run_waits" ADD CONSTRAINT "automation_run_waits_run_id_automation_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."automation_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "automation_run_waits" ADD CONSTRAINT "automation_run_waits_automation_id_automations_id_fk" FOREIGN KEY ("automation_id") REFERENCES "public"."automations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "automation_run_waits_run_idx" ON "automation_run_waits" USING btree ("tenant_id","run_id");--> statement-breakpoint
CREATE INDEX "automation_run_waits_due_idx" ON "automation_run_waits" USING btree ("status","resume_at");--> statement-breakpoint
CREATE INDEX "automation_run_waits_automation_idx" ON "automation_run_waits" USING btree ("tenant_id","automation_id","status","resume_at");