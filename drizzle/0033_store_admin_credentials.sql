ALTER TYPE "public"."credential_kind" ADD VALUE 'shopify_admin';--> statement-breakpoint
ALTER TYPE "public"."credential_kind" ADD VALUE 'woocommerce_rest';--> statement-breakpoint
ALTER TABLE "store_connections" ADD COLUMN "admin_credential_id" uuid;--> statement-breakpoint
ALTER TABLE "store_connections" ADD CONSTRAINT "store_connections_admin_credential_id_credentials_id_fk" FOREIGN KEY ("admin_credential_id") REFERENCES "public"."credentials"("id") ON DELETE set null ON UPDATE no action;