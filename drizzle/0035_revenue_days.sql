CREATE TABLE "automation_revenue_days" (
	"tenant_id" uuid NOT NULL,
	"day" date NOT NULL,
	"automation_id" uuid NOT NULL,
	"currency" text DEFAULT '' NOT NULL,
	"conversions" integer DEFAULT 0 NOT NULL,
	"revenue" numeric DEFAULT '0' NOT NULL,
	CONSTRAINT "automation_revenue_days_tenant_id_day_automation_id_currency_pk" PRIMARY KEY("tenant_id","day","automation_id","currency")
);
--> statement-breakpoint
ALTER TABLE "automation_revenue_days" ADD CONSTRAINT "automation_revenue_days_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- The dashboard's rollup (issue 50): each message-attributed order adds itself to its shop day,
-- automation and currency, in the statement that attributes it. An order is attributed once (the
-- unique key on shop and order), so each is added once. Hand-written: drizzle-kit cannot express triggers.
CREATE FUNCTION "order_attributions_revenue_day"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO automation_revenue_days (tenant_id, day, automation_id, currency, conversions, revenue)
    SELECT NEW.tenant_id, (NEW.at AT TIME ZONE t.timezone)::date, NEW.automation_id, coalesce(NEW.currency, ''), 1, NEW.amount
    FROM tenants t WHERE t.id = NEW.tenant_id
    ON CONFLICT (tenant_id, day, automation_id, currency) DO UPDATE
      SET conversions = automation_revenue_days.conversions + 1,
          revenue = automation_revenue_days.revenue + excluded.revenue;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "order_attributions_revenue_day" AFTER INSERT ON "order_attributions" FOR EACH ROW
  WHEN (NEW.touch_kind = 'message')
  EXECUTE FUNCTION "order_attributions_revenue_day"();--> statement-breakpoint
INSERT INTO automation_revenue_days (tenant_id, day, automation_id, currency, conversions, revenue)
  SELECT o.tenant_id, (o.at AT TIME ZONE t.timezone)::date, o.automation_id, coalesce(o.currency, ''), count(*), sum(o.amount)
  FROM order_attributions o JOIN tenants t ON t.id = o.tenant_id
  WHERE o.touch_kind = 'message'
  GROUP BY 1, 2, 3, 4;
