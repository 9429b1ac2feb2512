ALTER TABLE "tenants" ADD COLUMN "signing_secret" text;--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN "signing_secret_shown_at" timestamp with time zone;