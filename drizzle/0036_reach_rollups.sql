CREATE TABLE "automation_reach_days" (
	"tenant_id" uuid NOT NULL,
	"automation_id" uuid NOT NULL,
	"day" date NOT NULL,
	"version" integer NOT NULL,
	"scope" text NOT NULL,
	"key" text NOT NULL,
	"gap" smallint NOT NULL,
	"customers" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "automation_reach_days_pk" PRIMARY KEY("tenant_id","automation_id","day","version","scope","key","gap")
);
--> statement-breakpoint
CREATE TABLE "automation_reach_members" (
	"tenant_id" uuid NOT NULL,
	"automation_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"scope" text NOT NULL,
	"key" text NOT NULL,
	"recipient" text NOT NULL,
	"days" date[] NOT NULL,
	CONSTRAINT "automation_reach_members_pk" PRIMARY KEY("tenant_id","automation_id","version","scope","key","recipient")
);
--> statement-breakpoint
CREATE TABLE "automation_step_days" (
	"tenant_id" uuid NOT NULL,
	"automation_id" uuid NOT NULL,
	"day" date NOT NULL,
	"version" integer NOT NULL,
	"node_id" text NOT NULL,
	"branch" text DEFAULT '' NOT NULL,
	"currency" text DEFAULT '' NOT NULL,
	"touches" integer DEFAULT 0 NOT NULL,
	"conversions" integer DEFAULT 0 NOT NULL,
	"revenue" numeric DEFAULT '0' NOT NULL,
	CONSTRAINT "automation_step_days_pk" PRIMARY KEY("tenant_id","automation_id","day","version","node_id","branch","currency")
);
--> statement-breakpoint
ALTER TABLE "automation_reach_days" ADD CONSTRAINT "automation_reach_days_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "automation_reach_members" ADD CONSTRAINT "automation_reach_members_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "automation_step_days" ADD CONSTRAINT "automation_step_days_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Issue 50, fast at scale (docs/performance-of-automations.md, lib/automations/performance/README.md):
-- the Performance tab reads rollups kept in the statement that writes a touch or an attribution,
-- exact, instead of the automation's rows. Hand-written: drizzle-kit cannot express functions or
-- triggers. Statement triggers with transition tables: the engine's few touches of a phase and a
-- bulk load are the same set-based statements, and no trigger runs per row.
--
-- The gaps of a customer's sorted days in a scope: each day with the days since the one before
-- (367, the longest period plus one, when none is within a year).
CREATE FUNCTION "reach_gaps"(days date[]) RETURNS TABLE ("day" date, "gap" smallint) LANGUAGE sql IMMUTABLE AS $$
  SELECT d, least(coalesce(d - lag(d) OVER (ORDER BY d), 367), 367)::smallint FROM unnest(days) AS d
$$;--> statement-breakpoint
-- The scopes a touch counts its customer in (see automation_reach_members in
-- lib/db/schema/performance.ts), for its version and for version 0 (any version), on the shop's day.
CREATE FUNCTION "automation_touches_rollup"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO automation_step_days AS s (tenant_id, automation_id, day, version, node_id, branch, currency, touches)
    SELECT n.tenant_id, n.automation_id, (n.at AT TIME ZONE t.timezone)::date, n.automation_version, n.node_id,
      coalesce(n.branch, ''), '', count(*)::int
    FROM new_touches n JOIN tenants t ON t.id = n.tenant_id
    WHERE n.kind = 'message'
    GROUP BY 1, 2, 3, 4, 5, 6
    ON CONFLICT (tenant_id, automation_id, day, version, node_id, branch, currency)
      DO UPDATE SET touches = s.touches + excluded.touches;
  -- 1. Customers new to a scope: inserted with their days, whose gaps are added. A customer the
  -- scope already has is only locked here (DO UPDATE … WHERE false locks without writing), so a
  -- concurrent writer of the same customer waits for this transaction, and step 2 reads their
  -- days as last committed.
  WITH b AS (
    SELECT x.tenant_id, x.automation_id, x.version, x.scope, x.key, x.recipient,
      array_agg(DISTINCT x.day ORDER BY x.day) AS days
    FROM (
      SELECT n.tenant_id, n.automation_id, v.version, s.scope, s.key, n.recipient,
        (n.at AT TIME ZONE t.timezone)::date AS day
      FROM new_touches n JOIN tenants t ON t.id = n.tenant_id
      CROSS JOIN LATERAL (VALUES (0), (n.automation_version)) AS v(version)
      CROSS JOIN LATERAL (VALUES
        ('all', '', n.kind = 'message'),
        ('step', n.node_id, n.kind = 'message'),
        ('branch', coalesce(n.branch, ''), n.kind = 'message' AND n.branch IS NOT NULL),
        ('entry', CASE n.kind WHEN 'holdout' THEN 'held_out' ELSE 'treated' END, n.kind <> 'message')
      ) AS s(scope, key, keep)
      WHERE s.keep) x
    GROUP BY 1, 2, 3, 4, 5, 6),
  fresh AS (
    INSERT INTO automation_reach_members AS m (tenant_id, automation_id, version, scope, key, recipient, days)
    SELECT * FROM b ORDER BY 1, 2, 3, 4, 5, 6
    ON CONFLICT (tenant_id, automation_id, version, scope, key, recipient) DO UPDATE SET days = m.days WHERE false
    RETURNING m.tenant_id, m.automation_id, m.version, m.scope, m.key, m.days)
  INSERT INTO automation_reach_days AS r (tenant_id, automation_id, day, version, scope, key, gap, customers)
    SELECT f.tenant_id, f.automation_id, g.day, f.version, f.scope, f.key, g.gap, count(*)::int
    FROM fresh f CROSS JOIN LATERAL reach_gaps(f.days) g
    GROUP BY 1, 2, 3, 4, 5, 6, 7
    ON CONFLICT (tenant_id, automation_id, day, version, scope, key, gap)
      DO UPDATE SET customers = r.customers + excluded.customers;
  -- 2. Customers the scope had, reached on a day it did not have yet: the gaps of their days
  -- before and after are subtracted and added (a day between two others shortens the next one's
  -- gap), and their days kept to the last 400 (older days no longer change a gap).
  WITH b AS (
    SELECT x.tenant_id, x.automation_id, x.version, x.scope, x.key, x.recipient,
      array_agg(DISTINCT x.day ORDER BY x.day) AS days
    FROM (
      SELECT n.tenant_id, n.automation_id, v.version, s.scope, s.key, n.recipient,
        (n.at AT TIME ZONE t.timezone)::date AS day
      FROM new_touches n JOIN tenants t ON t.id = n.tenant_id
      CROSS JOIN LATERAL (VALUES (0), (n.automation_version)) AS v(version)
      CROSS JOIN LATERAL (VALUES
        ('all', '', n.kind = 'message'),
        ('step', n.node_id, n.kind = 'message'),
        ('branch', coalesce(n.branch, ''), n.kind = 'message' AND n.branch IS NOT NULL),
        ('entry', CASE n.kind WHEN 'holdout' THEN 'held_out' ELSE 'treated' END, n.kind <> 'message')
      ) AS s(scope, key, keep)
      WHERE s.keep) x
    GROUP BY 1, 2, 3, 4, 5, 6),
  c AS (
    SELECT m.tenant_id, m.automation_id, m.version, m.scope, m.key, m.recipient, m.days AS old,
      ARRAY(SELECT DISTINCT d FROM unnest(m.days || b.days) AS d ORDER BY d) AS merged
    FROM b JOIN automation_reach_members m USING (tenant_id, automation_id, version, scope, key, recipient)
    WHERE NOT m.days @> b.days),
  kept AS (
    UPDATE automation_reach_members m
    SET days = ARRAY(SELECT d FROM unnest(c.merged) AS d WHERE d > c.merged[cardinality(c.merged)] - 400 ORDER BY d)
    FROM c
    WHERE (m.tenant_id, m.automation_id, m.version, m.scope, m.key, m.recipient)
      = (c.tenant_id, c.automation_id, c.version, c.scope, c.key, c.recipient)),
  delta AS (
    SELECT c.tenant_id, c.automation_id, g.day, c.version, c.scope, c.key, g.gap, 1 AS n
    FROM c CROSS JOIN LATERAL reach_gaps(c.merged) g
    UNION ALL
    SELECT c.tenant_id, c.automation_id, g.day, c.version, c.scope, c.key, g.gap, -1
    FROM c CROSS JOIN LATERAL reach_gaps(c.old) g)
  INSERT INTO automation_reach_days AS r (tenant_id, automation_id, day, version, scope, key, gap, customers)
    SELECT tenant_id, automation_id, day, version, scope, key, gap, sum(n)::int
    FROM delta GROUP BY 1, 2, 3, 4, 5, 6, 7 HAVING sum(n) <> 0
    ON CONFLICT (tenant_id, automation_id, day, version, scope, key, gap)
      DO UPDATE SET customers = r.customers + excluded.customers;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "automation_touches_rollup" AFTER INSERT ON "automation_touches"
  REFERENCING NEW TABLE AS new_touches FOR EACH STATEMENT
  EXECUTE FUNCTION "automation_touches_rollup"();--> statement-breakpoint
-- Attributed orders: the dashboard's revenue days (the per-row trigger of 0035, now per statement)
-- and the Performance tab's step days, message attributions only (a holdout is not revenue).
DROP TRIGGER "order_attributions_revenue_day" ON "order_attributions";--> statement-breakpoint
DROP FUNCTION "order_attributions_revenue_day"();--> statement-breakpoint
CREATE FUNCTION "order_attributions_rollup"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO automation_revenue_days AS r (tenant_id, day, automation_id, currency, conversions, revenue)
    SELECT n.tenant_id, (n.at AT TIME ZONE t.timezone)::date, n.automation_id, coalesce(n.currency, ''),
      count(*)::int, sum(n.amount)
    FROM new_orders n JOIN tenants t ON t.id = n.tenant_id
    WHERE n.touch_kind = 'message'
    GROUP BY 1, 2, 3, 4
    ON CONFLICT (tenant_id, day, automation_id, currency) DO UPDATE
      SET conversions = r.conversions + excluded.conversions, revenue = r.revenue + excluded.revenue;
  INSERT INTO automation_step_days AS s (tenant_id, automation_id, day, version, node_id, branch, currency,
      conversions, revenue)
    SELECT n.tenant_id, n.automation_id, (n.at AT TIME ZONE t.timezone)::date, n.automation_version, n.node_id,
      coalesce(n.branch, ''), coalesce(n.currency, ''), count(*)::int, sum(n.amount)
    FROM new_orders n JOIN tenants t ON t.id = n.tenant_id
    WHERE n.touch_kind = 'message'
    GROUP BY 1, 2, 3, 4, 5, 6, 7
    ON CONFLICT (tenant_id, automation_id, day, version, node_id, branch, currency) DO UPDATE
      SET conversions = s.conversions + excluded.conversions, revenue = s.revenue + excluded.revenue;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "order_attributions_rollup" AFTER INSERT ON "order_attributions"
  REFERENCING NEW TABLE AS new_orders FOR EACH STATEMENT
  EXECUTE FUNCTION "order_attributions_rollup"();--> statement-breakpoint
-- What was written before this migration, once, set-based.
INSERT INTO automation_step_days (tenant_id, automation_id, day, version, node_id, branch, currency, touches)
  SELECT x.tenant_id, x.automation_id, (x.at AT TIME ZONE t.timezone)::date, x.automation_version, x.node_id,
    coalesce(x.branch, ''), '', count(*)::int
  FROM automation_touches x JOIN tenants t ON t.id = x.tenant_id
  WHERE x.kind = 'message'
  GROUP BY 1, 2, 3, 4, 5, 6;--> statement-breakpoint
INSERT INTO automation_step_days AS s (tenant_id, automation_id, day, version, node_id, branch, currency, conversions, revenue)
  SELECT o.tenant_id, o.automation_id, (o.at AT TIME ZONE t.timezone)::date, o.automation_version, o.node_id,
    coalesce(o.branch, ''), coalesce(o.currency, ''), count(*)::int, sum(o.amount)
  FROM order_attributions o JOIN tenants t ON t.id = o.tenant_id
  WHERE o.touch_kind = 'message'
  GROUP BY 1, 2, 3, 4, 5, 6, 7
  ON CONFLICT (tenant_id, automation_id, day, version, node_id, branch, currency) DO UPDATE
    SET conversions = s.conversions + excluded.conversions, revenue = s.revenue + excluded.revenue;--> statement-breakpoint
INSERT INTO automation_reach_members (tenant_id, automation_id, version, scope, key, recipient, days)
  SELECT x.tenant_id, x.automation_id, v.version, s.scope, s.key, x.recipient,
    array_agg(DISTINCT (x.at AT TIME ZONE t.timezone)::date ORDER BY (x.at AT TIME ZONE t.timezone)::date)
  FROM automation_touches x JOIN tenants t ON t.id = x.tenant_id
  CROSS JOIN LATERAL (VALUES (0), (x.automation_version)) AS v(version)
  CROSS JOIN LATERAL (VALUES
    ('all', '', x.kind = 'message'),
    ('step', x.node_id, x.kind = 'message'),
    ('branch', coalesce(x.branch, ''), x.kind = 'message' AND x.branch IS NOT NULL),
    ('entry', CASE x.kind WHEN 'holdout' THEN 'held_out' ELSE 'treated' END, x.kind <> 'message')
  ) AS s(scope, key, keep)
  WHERE s.keep
  GROUP BY 1, 2, 3, 4, 5, 6;--> statement-breakpoint
INSERT INTO automation_reach_days (tenant_id, automation_id, day, version, scope, key, gap, customers)
  SELECT m.tenant_id, m.automation_id, g.day, m.version, m.scope, m.key, g.gap, count(*)::int
  FROM automation_reach_members m CROSS JOIN LATERAL reach_gaps(m.days) g
  GROUP BY 1, 2, 3, 4, 5, 6, 7;
