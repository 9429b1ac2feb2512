CREATE TABLE "attribution_settings" (
	"tenant_id" uuid PRIMARY KEY NOT NULL,
	"goal" text DEFAULT 'order_paid' NOT NULL,
	"window_days" smallint DEFAULT 5 NOT NULL,
	"currency" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "attribution_settings_window" CHECK ("attribution_settings"."window_days" between 1 and 30),
	CONSTRAINT "attribution_settings_goal" CHECK ("attribution_settings"."goal" in ('order_paid', 'order_created'))
);
--> statement-breakpoint
CREATE TABLE "automation_touches" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"tenant_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"customer_id" text,
	"email" text,
	"recipient" text NOT NULL,
	"automation_id" uuid NOT NULL,
	"automation_version" integer NOT NULL,
	"run_id" uuid NOT NULL,
	"node_id" text NOT NULL,
	"leg" integer DEFAULT 1 NOT NULL,
	"branch" text,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "automation_touches_kind" CHECK ("automation_touches"."kind" in ('message', 'holdout', 'entered'))
);
--> statement-breakpoint
CREATE TABLE "order_attributions" (
	"tenant_id" uuid NOT NULL,
	"order_id" text NOT NULL,
	"amount" numeric NOT NULL,
	"currency" text,
	"customer_id" text,
	"email" text,
	"touch_id" bigint NOT NULL,
	"touch_kind" text NOT NULL,
	"recipient" text NOT NULL,
	"automation_id" uuid NOT NULL,
	"automation_version" integer NOT NULL,
	"run_id" uuid NOT NULL,
	"node_id" text NOT NULL,
	"branch" text,
	"touched_at" timestamp with time zone NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "automations" ADD COLUMN "holdout_percent" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "attribution_settings" ADD CONSTRAINT "attribution_settings_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "automation_touches" ADD CONSTRAINT "automation_touches_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_attributions" ADD CONSTRAINT "order_attributions_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "automation_touches_once_idx" ON "automation_touches" USING btree ("run_id","node_id","leg","recipient");--> statement-breakpoint
CREATE INDEX "automation_touches_customer_idx" ON "automation_touches" USING btree ("tenant_id","customer_id","at" DESC NULLS LAST) WHERE "automation_touches"."customer_id" is not null and "automation_touches"."kind" <> 'entered';--> statement-breakpoint
CREATE INDEX "automation_touches_email_idx" ON "automation_touches" USING btree ("tenant_id","email","at" DESC NULLS LAST) WHERE "automation_touches"."email" is not null and "automation_touches"."kind" <> 'entered';--> statement-breakpoint
CREATE INDEX "automation_touches_automation_idx" ON "automation_touches" USING btree ("tenant_id","automation_id","at");--> statement-breakpoint
CREATE UNIQUE INDEX "order_attributions_order_idx" ON "order_attributions" USING btree ("tenant_id","order_id");--> statement-breakpoint
CREATE INDEX "order_attributions_automation_idx" ON "order_attributions" USING btree ("tenant_id","automation_id","at");--> statement-breakpoint
ALTER TABLE "automations" ADD CONSTRAINT "automations_holdout_percent" CHECK ("automations"."holdout_percent" between 0 and 50);--> statement-breakpoint
-- Attribution (issue 50, docs/performance-of-automations.md): a goal order's event, recorded by
-- any path (a record change, a store connection, POST /api/v1/events), is given to its customer's
-- latest touch within the shop's window, in the statement that records it. The customer's id
-- first, else the email (lower-case); two probes of partial indexes, each ending at the first row.
-- An order is attributed once (the unique key on shop and order): a replayed or repeated event
-- changes nothing. Events of other types do not enter the function (the trigger's WHEN).
CREATE FUNCTION "attribute_order"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_goal text;
  v_window int;
  v_order jsonb;
  v_order_id text;
  v_customer text;
  v_mail text;
  v_total text;
  v_currency text;
  v_since timestamptz;
  t automation_touches%ROWTYPE;
BEGIN
  SELECT a.goal, a.window_days INTO v_goal, v_window FROM attribution_settings a WHERE a.tenant_id = NEW.tenant_id;
  v_goal := coalesce(v_goal, 'order_paid');
  v_window := coalesce(v_window, 5);
  -- An order that arrives paid through PUT records only order.created (SPEC §4): for the goal
  -- "paid" it counts when its status then was paid (or past it).
  IF NEW.type <> replace(v_goal, '_', '.') AND NOT (v_goal = 'order_paid' AND NEW.type = 'order.created'
      AND NEW.payload->>'status' IN ('paid', 'fulfilled')) THEN RETURN NULL; END IF;
  v_order_id := coalesce(NEW.entity_id, NEW.payload->>'orderId');
  IF v_order_id IS NULL THEN RETURN NULL; END IF;
  SELECT e.data INTO v_order FROM entities e
    WHERE e.tenant_id = NEW.tenant_id AND e.domain = 'order' AND e.id = v_order_id;
  -- The stored order speaks first; an event about an order the shop does not keep, its payload.
  v_order := coalesce(NEW.payload, '{}'::jsonb) || coalesce(v_order, '{}'::jsonb);
  v_customer := nullif(btrim(v_order->>'customerId'), '');
  v_mail := lower(nullif(btrim(v_order->>'email'), ''));
  v_total := btrim(v_order->>'total');
  v_currency := upper(nullif(btrim(v_order->>'currency'), ''));
  IF v_total IS NULL OR v_total !~ '^-?[0-9]+(\.[0-9]+)?$' THEN RETURN NULL; END IF;
  v_since := NEW.created_at - make_interval(days => v_window);
  IF v_customer IS NOT NULL THEN
    SELECT * INTO t FROM automation_touches x
      WHERE x.tenant_id = NEW.tenant_id AND x.customer_id = v_customer AND x.kind <> 'entered' AND x.at >= v_since
      ORDER BY x.at DESC LIMIT 1;
  END IF;
  IF t.id IS NULL AND v_mail IS NOT NULL THEN
    SELECT * INTO t FROM automation_touches x
      WHERE x.tenant_id = NEW.tenant_id AND x.email = v_mail AND x.kind <> 'entered' AND x.at >= v_since
      ORDER BY x.at DESC LIMIT 1;
  END IF;
  IF t.id IS NULL THEN RETURN NULL; END IF;
  INSERT INTO order_attributions (tenant_id, order_id, amount, currency, customer_id, email, touch_id, touch_kind,
      recipient, automation_id, automation_version, run_id, node_id, branch, touched_at, at)
    VALUES (NEW.tenant_id, v_order_id, v_total::numeric, v_currency, v_customer, v_mail, t.id, t.kind,
      t.recipient, t.automation_id, t.automation_version, t.run_id, t.node_id, t.branch, t.at, NEW.created_at)
    ON CONFLICT (tenant_id, order_id) DO NOTHING;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "events_attribute_order" AFTER INSERT ON "events" FOR EACH ROW
  WHEN (NEW.domain = 'order' AND NEW.type IN ('order.paid', 'order.created'))
  EXECUTE FUNCTION "attribute_order"();
