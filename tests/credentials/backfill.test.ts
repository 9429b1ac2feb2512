import fs from "node:fs";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, test } from "vitest";
import { POST as dryRunRoute } from "@/app/api/v1/automations/[id]/dry-run/route";
import { POST as createAutomationRoute } from "@/app/api/v1/automations/route";
import { POST as createRoute } from "@/app/api/v1/credentials/route";
import { fillSlackHosts } from "@/lib/credentials/slack-hosts";
import { getDb } from "@/lib/db/client";
import { credentials } from "@/lib/db/schema";
import { MIGRATIONS_FOLDER } from "@/lib/migrate";
import { call } from "@/tests/helpers/fixtures";
import { flow } from "@/tests/helpers/flows";
import { createShop, type TestShop } from "@/tests/helpers/shop";

/*
 * Credentials stored before they had hosts: the migration gives each the hosts of the HTTP steps
 * that send it (published or draft), a Slack webhook its URL's host at the next start, and any
 * other none — which sends it nowhere until an admin sets them.
 */

let shop: TestShop;
const ids = { partner: "", unused: "", slack: "" };

async function credential(body: Record<string, unknown>): Promise<string> {
  const made = await call<{ id: string }>(createRoute, { method: "POST", key: shop.keys.admin, body });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  return made.body.id;
}

/** The migration's backfill statement, as the migrator runs it. */
function backfillStatement(): string {
  const text = fs.readFileSync(path.join(MIGRATIONS_FOLDER, "0026_credential_hosts.sql"), "utf8");
  return text.split("--> statement-breakpoint").find((part) => part.includes("UPDATE"))!;
}

const hostsOf = async (id: string) =>
  (await getDb().select().from(credentials).where(eq(credentials.id, id)))[0]!.allowedHosts;

let automationId = "";

beforeAll(async () => {
  shop = await createShop();
  ids.partner = await credential({
    name: "Partner",
    kind: "bearer",
    value: "partner-1",
    allowedHosts: ["x.test"],
  });
  ids.unused = await credential({ name: "Unused", kind: "basic", value: "u:p", allowedHosts: ["x.test"] });
  ids.slack = await credential({
    name: "Ops",
    kind: "slack_webhook",
    value: "https://hooks.slack.com/services/T9/B9/z",
  });
  //  order_paid ──▶ HTTP https://API.Partner.example/orders (Partner)
  //             └─▶ HTTP {entity.callback}/x (Partner)          a token host names nothing
  // "Unused" is named by no step.
  const created = await call<{ id: string }>(createAutomationRoute, {
    method: "POST",
    key: shop.keys.editor,
    body: {
      name: "Partner calls",
      graph: flow(
        [
          { id: "t", type: "auto.trigger.order_paid" },
          {
            id: "a",
            type: "auto.action.http_request",
            params: { url: "https://API.Partner.example/orders", auth: { credentialId: ids.partner } },
          },
          {
            id: "b",
            type: "auto.action.http_request",
            params: { url: "{entity.callback}/x", auth: { credentialId: ids.partner } },
          },
        ],
        [
          ["t", "a"],
          ["t", "b"],
        ],
      ),
    },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  automationId = created.body.id;
  // As they were before the migration: no hosts at all.
  await getDb().execute(sql`update credentials set allowed_hosts = '{}' where tenant_id = ${shop.tenant.id}`);
});

describe("the migration's backfill", () => {
  test("a credential gets the hosts of the steps that send it; one no step sends gets none; a Slack webhook its URL's", async () => {
    await getDb().execute(sql.raw(backfillStatement()));
    expect(await hostsOf(ids.partner)).toEqual(["api.partner.example"]);
    expect(await hostsOf(ids.unused)).toEqual([]);
    expect(await hostsOf(ids.slack)).toEqual([]);
    expect(await fillSlackHosts(getDb())).toBeGreaterThanOrEqual(1);
    expect(await hostsOf(ids.slack)).toEqual(["hooks.slack.com"]);
    // Run again, it changes nothing.
    await getDb().execute(sql.raw(backfillStatement()));
    expect(await hostsOf(ids.partner)).toEqual(["api.partner.example"]);
  });

  test("a credential with no hosts is sent nowhere, and the sentence says who can fix it", async () => {
    const dry = await call<{ steps: { nodeId: string; outcome: string; error?: string }[] }>(dryRunRoute, {
      method: "POST",
      key: shop.keys.editor,
      params: { id: automationId },
      body: {
        graph: flow(
          [
            { id: "t", type: "auto.trigger.order_paid" },
            {
              id: "c",
              type: "auto.action.http_request",
              params: { url: "https://api.unused.example/x", auth: { credentialId: ids.unused } },
            },
          ],
          [["t", "c"]],
        ),
      },
    });
    expect(dry.status, JSON.stringify(dry.body)).toBe(200);
    expect(dry.body.steps.find((s) => s.nodeId === "c")?.error).toBe(
      "Refused to send the credential 'Unused' to api.unused.example: it may be sent to no host yet; an admin can add hosts in Settings → Credentials.",
    );
  });
});
