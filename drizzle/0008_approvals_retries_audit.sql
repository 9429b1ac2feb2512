CREATE TABLE "audit_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"action" text NOT NULL,
	"actor" text NOT NULL,
	"subject_type" text NOT NULL,
	"subject_id" text NOT NULL,
	"detail" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "automation_run_waits" ADD COLUMN "decision" text;--> statement-breakpoint
ALTER TABLE "automation_run_waits" ADD COLUMN "decided_by" text;--> statement-breakpoint
ALTER TABLE "automation_run_waits" ADD COLUMN "decided_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "automation_run_waits" ADD COLUMN "note" text;--> statement-breakpoint
ALTER TABLE "automation_run_waits" ADD COLUMN "attempt" integer;--> statement-breakpoint
ALTER TABLE "audit_events" ADD CONSTRAINT "audit_events_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_events_tenant_idx" ON "audit_events" USING btree ("tenant_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);