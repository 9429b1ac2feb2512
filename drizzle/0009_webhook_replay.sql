-- UNLOGGED (added by hand; drizzle-kit cannot declare it): counters need no crash safety, and
-- commits touching only unlogged tables do not wait for a WAL flush on the hot API path.
CREATE UNLOGGED TABLE "rate_limit_windows" (
	"key" text PRIMARY KEY NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"hits" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_signatures" (
	"signature" text PRIMARY KEY NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "webhook_signatures_expires_idx" ON "webhook_signatures" USING btree ("expires_at");