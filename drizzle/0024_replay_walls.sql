CREATE TABLE "inventory_level_clocks" (
	"tenant_id" uuid NOT NULL,
	"inventory_item_id" text NOT NULL,
	"location_id" text NOT NULL,
	"source_updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "inventory_level_clocks_tenant_id_inventory_item_id_location_id_pk" PRIMARY KEY("tenant_id","inventory_item_id","location_id")
);
--> statement-breakpoint
ALTER TABLE "connection_deliveries" ADD COLUMN "body_hash" text;--> statement-breakpoint
ALTER TABLE "inventory_level_clocks" ADD CONSTRAINT "inventory_level_clocks_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "connection_deliveries" ADD CONSTRAINT "connection_deliveries_body_key" UNIQUE("connection_id","topic","body_hash");