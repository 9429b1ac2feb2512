CREATE TABLE "automation_schedules" (
	"automation_id" uuid NOT NULL,
	"node_id" text NOT NULL,
	"tenant_id" uuid NOT NULL,
	"cron" text NOT NULL,
	"timezone" text NOT NULL,
	"next_fire_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "automation_schedules_automation_id_node_id_pk" PRIMARY KEY("automation_id","node_id")
);
--> statement-breakpoint
CREATE TABLE "schedule_fires" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"automation_id" uuid NOT NULL,
	"node_id" text NOT NULL,
	"fire_at" timestamp with time zone NOT NULL,
	"kind" text NOT NULL,
	"status" text NOT NULL,
	"automation_version" integer NOT NULL,
	"audience" jsonb,
	"cursor" text,
	"runs_created" integer DEFAULT 0 NOT NULL,
	"reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "schedule_fires_once" UNIQUE("automation_id","node_id","fire_at")
);
--> statement-breakpoint
ALTER TABLE "automations" ADD COLUMN "builtin_slug" text;--> statement-breakpoint
ALTER TABLE "automation_schedules" ADD CONSTRAINT "automation_schedules_automation_id_automations_id_fk" FOREIGN KEY ("automation_id") REFERENCES "public"."automations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedule_fires" ADD CONSTRAINT "schedule_fires_automation_id_automations_id_fk" FOREIGN KEY ("automation_id") REFERENCES "public"."automations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "automation_schedules_due_idx" ON "automation_schedules" USING btree ("next_fire_at") WHERE "automation_schedules"."next_fire_at" is not null;--> statement-breakpoint
CREATE INDEX "schedule_fires_list_idx" ON "schedule_fires" USING btree ("tenant_id","automation_id","fire_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "schedule_fires_pending_idx" ON "schedule_fires" USING btree ("created_at") WHERE "schedule_fires"."status" = 'pending';--> statement-breakpoint
CREATE UNIQUE INDEX "automations_builtin_unique" ON "automations" USING btree ("tenant_id","builtin_slug") WHERE "automations"."builtin_slug" is not null;--> statement-breakpoint
ALTER TABLE "automations" ADD CONSTRAINT "automations_builtin_not_archived" CHECK ("automations"."builtin_slug" is null or "automations"."status" <> 'archived');