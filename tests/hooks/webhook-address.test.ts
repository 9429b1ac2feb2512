import { afterAll, beforeAll, expect, test } from "vitest";
import { getAuth } from "@/lib/auth/auth";
import { addMember } from "@/lib/auth/users";
import type { Role } from "@/lib/identity/roles";
import { createShop, type TestShop } from "@/tests/helpers/shop";
import { flow, publishFlow } from "@/tests/helpers/flows";
import { startWebServer, type WebServer } from "@/tests/helpers/web-server";

/*
 * A webhook trigger's token is its address: posting to it starts runs. The automation's page, as
 * the production server renders it, holds the address for an editor and not for a viewer (the
 * API and MCP replies are checked in tests/credentials/secrets-never-shown.test.ts).
 */

const TOKEN = "tok_page_address_98765";
let web: WebServer;
let shop: TestShop;
let automationId: string;

async function cookieOf(role: Role): Promise<string> {
  const email = `${role}-hook-page@shop.test`;
  await addMember(shop.tenant.id, { email, role, password: "password-1" });
  const res = await getAuth().api.signInEmail({ body: { email, password: "password-1" }, asResponse: true });
  return res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}

beforeAll(async () => {
  web = await startWebServer();
  shop = await createShop();
  automationId = await publishFlow(
    shop.keys.editor,
    "Unsigned hook",
    flow(
      [
        { id: "in", type: "auto.trigger.webhook", params: { token: TOKEN } },
        { id: "task", type: "auto.action.create_task", params: { title: "Hooked" } },
      ],
      [["in", "task"]],
    ),
  );
}, 120_000);

afterAll(async () => {
  await web?.stop();
});

async function page(role: Role, path: string): Promise<string> {
  const res = await fetch(`${web.baseUrl}${path}`, { headers: { cookie: await cookieOf(role) } });
  expect(res.status).toBe(200);
  return res.text();
}

test("the automation's page shows a webhook's address to an editor, never to a viewer", async () => {
  const editor = await page("editor", `/automations/${automationId}`);
  expect(editor).toContain("Unsigned hook");
  expect(editor).toContain(TOKEN);
  const viewer = await page("viewer", `/automations/${automationId}`);
  expect(viewer).toContain("Unsigned hook");
  // The trigger is there for the viewer, its token is not.
  expect(viewer).toContain("auto.trigger.webhook");
  expect(viewer).not.toContain(TOKEN);
  // Nor is the viewer told the token they were not sent is missing.
  expect(viewer).not.toContain("Webhook received: token");
}, 60_000);
