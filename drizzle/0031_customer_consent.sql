CREATE TABLE "customer_consent" (
	"tenant_id" uuid NOT NULL,
	"customer_id" text NOT NULL,
	"unsubscribed_at" timestamp with time zone,
	"unsubscribed_via" text,
	"resubscribed_at" timestamp with time zone,
	"resubscribed_by" text,
	"resubscribe_reason" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "customer_consent_tenant_id_customer_id_pk" PRIMARY KEY("tenant_id","customer_id")
);
--> statement-breakpoint
ALTER TABLE "outbox_emails" ADD COLUMN "headers" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "customer_consent" ADD CONSTRAINT "customer_consent_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;