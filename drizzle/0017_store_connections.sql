CREATE TABLE "connection_deliveries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"connection_id" uuid NOT NULL,
	"topic" text NOT NULL,
	"delivery_id" text,
	"dedupe_key" text,
	"body" jsonb,
	"result" text DEFAULT 'received' NOT NULL,
	"reason" text,
	"domain" text,
	"entity_id" text,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"processed_at" timestamp with time zone,
	CONSTRAINT "connection_deliveries_dedupe_key" UNIQUE("connection_id","dedupe_key")
);
--> statement-breakpoint
CREATE TABLE "store_connections" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"platform" text NOT NULL,
	"name" text NOT NULL,
	"token" text NOT NULL,
	"credential_id" uuid NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "store_connections_token_unique" UNIQUE("token"),
	CONSTRAINT "store_connections_tenant_name_key" UNIQUE("tenant_id","name")
);
--> statement-breakpoint
ALTER TABLE "entities" ADD COLUMN "source_updated_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "connection_deliveries" ADD CONSTRAINT "connection_deliveries_connection_id_store_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."store_connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_connections" ADD CONSTRAINT "store_connections_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "store_connections" ADD CONSTRAINT "store_connections_credential_id_credentials_id_fk" FOREIGN KEY ("credential_id") REFERENCES "public"."credentials"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "connection_deliveries_list_idx" ON "connection_deliveries" USING btree ("tenant_id","connection_id","received_at" DESC NULLS LAST,"id");