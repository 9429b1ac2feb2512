ALTER TABLE "credentials" ADD COLUMN "allowed_hosts" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
-- Backfill: a credential an HTTP step sends today may keep going to that step's host. The hosts
-- are read from the published and draft graphs of the shop's automations (a host with a {token}
-- in it names no host and is skipped); a credential no step sends stays empty, meaning nowhere
-- until an admin sets its hosts. Slack webhooks are filled from their URL by migrateDatabase
-- (the URL is sealed, so SQL cannot read it).
UPDATE "credentials" c SET "allowed_hosts" = found.hosts
FROM (
  SELECT a.tenant_id, n.node -> 'params' -> 'auth' ->> 'credentialId' AS credential_id,
         array_agg(DISTINCT lower(substring(n.node -> 'params' ->> 'url' FROM '^[hH][tT][tT][pP][sS]?://(?:[^@/?#]*@)?(\[[^]]+\]|[^/:?#]+)'))) AS hosts
  FROM "automations" a
  CROSS JOIN LATERAL (
    SELECT jsonb_array_elements(coalesce(a.active_graph -> 'nodes', '[]'::jsonb)) AS node
    UNION ALL
    SELECT jsonb_array_elements(coalesce(a.draft_graph -> 'nodes', '[]'::jsonb))
  ) n
  WHERE n.node ->> 'type' = 'auto.action.http_request'
    AND n.node -> 'params' -> 'auth' ->> 'credentialId' IS NOT NULL
    AND substring(n.node -> 'params' ->> 'url' FROM '^[hH][tT][tT][pP][sS]?://(?:[^@/?#]*@)?(\[[^]]+\]|[^/:?#]+)') IS NOT NULL
    AND substring(n.node -> 'params' ->> 'url' FROM '^[hH][tT][tT][pP][sS]?://(?:[^@/?#]*@)?(\[[^]]+\]|[^/:?#]+)') NOT LIKE '%{%'
  GROUP BY 1, 2
) found
WHERE c.tenant_id = found.tenant_id AND c.id::text = found.credential_id AND c.kind IN ('bearer', 'basic', 'http_header');
