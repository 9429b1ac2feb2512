CREATE TABLE "automation_brakes" (
	"tenant_id" uuid PRIMARY KEY NOT NULL,
	"automation_ids" uuid[] NOT NULL,
	"engaged_by" text NOT NULL,
	"engaged_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "automation_brakes" ADD CONSTRAINT "automation_brakes_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;