CREATE TABLE "event_match_keys" (
	"tenant_id" uuid NOT NULL,
	"event_type" text NOT NULL,
	"key" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"event_id" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "event_match_paths" ADD COLUMN "registered_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "event_match_keys" ADD CONSTRAINT "event_match_keys_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "event_match_keys_lookup_idx" ON "event_match_keys" USING btree ("tenant_id","event_type","key","created_at");