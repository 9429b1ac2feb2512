CREATE TABLE "customer_message_sends" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"customer_id" text NOT NULL,
	"automation_id" uuid NOT NULL,
	"run_id" uuid NOT NULL,
	"node_id" text NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "message_deferrals" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"customer_id" text NOT NULL,
	"automation_id" uuid NOT NULL,
	"run_id" uuid NOT NULL,
	"node_id" text NOT NULL,
	"priority" smallint NOT NULL,
	"deferred_at" timestamp with time zone DEFAULT now() NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"kind" text NOT NULL,
	"status" text DEFAULT 'waiting' NOT NULL,
	"path" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"reason" text,
	"resolved_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN "messaging" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "automations" ADD COLUMN "message_priority" text DEFAULT 'normal' NOT NULL;--> statement-breakpoint
ALTER TABLE "automations" ADD COLUMN "expire_after_hours" integer DEFAULT 48 NOT NULL;--> statement-breakpoint
ALTER TABLE "customer_message_sends" ADD CONSTRAINT "customer_message_sends_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_deferrals" ADD CONSTRAINT "message_deferrals_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "customer_message_sends_recent_idx" ON "customer_message_sends" USING btree ("tenant_id","customer_id","sent_at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "message_deferrals_step_unique" ON "message_deferrals" USING btree ("run_id","node_id");--> statement-breakpoint
CREATE INDEX "message_deferrals_customer_idx" ON "message_deferrals" USING btree ("tenant_id","customer_id","due_at") WHERE "message_deferrals"."status" = 'waiting';--> statement-breakpoint
CREATE INDEX "message_deferrals_automation_idx" ON "message_deferrals" USING btree ("tenant_id","automation_id","deferred_at");