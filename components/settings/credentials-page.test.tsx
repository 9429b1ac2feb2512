import { renderToStaticMarkup } from "react-dom/server";
import { beforeAll, describe, expect, test, vi } from "vitest";
import CredentialsPage from "@/app/(admin)/settings/credentials/page";
import { createCredentialAction } from "@/lib/actions/credentials/create-credential";
import { deleteCredentialAction } from "@/lib/actions/credentials/delete-credential";
import { rotateCredentialAction } from "@/lib/actions/credentials/rotate-credential";
import { createShop, type TestShop } from "@/tests/helpers/shop";
import { flow, publishFlow } from "@/tests/helpers/flows";

// The page and the actions read the caller from the request headers; here they carry an API key.
const request = vi.hoisted(() => ({ headers: new Headers() }));
vi.mock("next/headers", () => ({ headers: async () => request.headers }));
vi.mock("next/cache", () => ({ refresh: () => {}, revalidatePath: () => {} }));
const asKey = (key: string) => {
  request.headers = new Headers({ authorization: `Bearer ${key}` });
};

/** Settings → Credentials as the key's holder sees it, rendered on the server. */
async function page(key: string, query: Record<string, string> = {}): Promise<string> {
  asKey(key);
  return renderToStaticMarkup(await CredentialsPage({ searchParams: Promise.resolve(query) }));
}

let shop: TestShop;
let empty: TestShop;
let warehouseId = "";
let unusedId = "";

beforeAll(async () => {
  [shop, empty] = [await createShop(), await createShop()];
  asKey(shop.keys.admin);
  const warehouse = await createCredentialAction({
    name: "Warehouse API",
    kind: "bearer",
    value: "wh-secret-token-9876",
    allowedHosts: ["warehouse.example"],
  });
  const unused = await createCredentialAction({
    name: "Old signing secret",
    kind: "webhook_secret",
    value: "whsec-unused-5555",
  });
  if (!warehouse.ok || !unused.ok) throw new Error("the credentials were not created");
  warehouseId = warehouse.data.id;
  unusedId = unused.data.id;
  //  order_paid ──▶ Send HTTP request (auth: Warehouse API)
  await publishFlow(
    shop.keys.editor,
    "Tell the warehouse",
    flow(
      [
        { id: "t", type: "auto.trigger.order_paid" },
        {
          id: "h",
          type: "auto.action.http_request",
          params: { url: "https://warehouse.example/orders", auth: { credentialId: warehouseId } },
        },
      ],
      [["t", "h"]],
    ),
  );
});

describe("Settings → Credentials", () => {
  test("a shop without credentials is taught what they are for", async () => {
    const html = await page(empty.keys.admin);
    expect(html).toContain("No credentials yet");
    expect(html).toContain(
      "Store API keys and signing secrets here; flows refer to them by name and never show the value.",
    );
    expect(html).toContain("Add a credential");
  });

  test("an admin sees each credential's kind, hosts, last 4 characters, creator and users, never its value", async () => {
    const html = await page(shop.keys.admin);
    expect(html).toContain("Warehouse API");
    expect(html).toContain("Bearer token");
    expect(html).toContain("…9876");
    expect(html).toContain("Webhook signing secret");
    expect(html).toContain("…5555");
    expect(html).toContain(`API key ${shop.keys.admin.slice(0, 10)}`);
    expect(html).toContain("warehouse.example");
    expect(html).toContain("Never sent");
    expect(html).toContain('aria-label="Edit the hosts of Warehouse API"');
    expect(html).toMatch(/<a[^>]*href="\/automations\/[^"]+"[^>]*>Tell the warehouse<\/a>/);
    expect(html).toContain("No automation");
    expect(html).toContain('aria-label="Rotate Warehouse API (…9876)"');
    expect(html).toContain('aria-label="Delete Warehouse API (…9876)"');
    expect(html).not.toContain("wh-secret-token");
    expect(html).not.toContain("whsec-unused");
  });

  test("the form offers every kind with its hint, takes the value in a password field, and proposes the step's host", async () => {
    const html = await page(shop.keys.admin, { host: "API.Loyalty.example" });
    expect(html).toMatch(/<input[^>]*name="allowedHosts"[^>]*value="api.loyalty.example"/);
    // Not a host: nothing is proposed.
    expect(await page(shop.keys.admin, { host: "https://evil.example/x" })).not.toContain("evil.example");
    for (const label of ["Header", "Bearer token", "Username and password", "Slack incoming webhook"])
      expect(html).toContain(`>${label}</option>`);
    expect(html).toContain("Sent as &#x27;Authorization: Bearer &lt;token&gt;&#x27;.");
    expect(html).toMatch(/<input[^>]*type="password"[^>]*autoComplete="new-password"/);
    expect(html).not.toMatch(/<input[^>]*type="password"[^>]*value="[^"]+"/);
  });

  test("a viewer and an editor see the list and its hosts without the controls", async () => {
    for (const role of ["viewer", "editor"] as const) {
      const html = await page(shop.keys[role]);
      expect(html).toContain("Warehouse API");
      expect(html).toContain("…9876");
      expect(html).toContain("warehouse.example");
      expect(html).toContain("Admins add, rotate and delete credentials");
      expect(html).not.toContain("Add a credential");
      expect(html).not.toContain('aria-label="Rotate');
      expect(html).not.toContain('aria-label="Delete');
      expect(html).not.toContain('aria-label="Edit the hosts');
      expect(html).not.toContain('type="password"');
    }
  });
});

describe("the credential actions", () => {
  test("create hands back the name, hosts and last 4 characters only; an editor or a viewer cannot", async () => {
    asKey(shop.keys.admin);
    const made = await createCredentialAction({
      name: "Stock feed",
      kind: "http_header",
      value: "X-Api-Key: feed-4321",
      allowedHosts: ["feed.example"],
    });
    expect(made).toEqual({
      ok: true,
      data: {
        id: expect.any(String),
        name: "Stock feed",
        kind: "http_header",
        last4: "4321",
        allowedHosts: ["feed.example"],
      },
    });
    const bad = await createCredentialAction({
      name: "Broken",
      kind: "basic",
      value: "no-colon",
      allowedHosts: ["feed.example"],
    });
    expect(bad.ok).toBe(false);
    if (!bad.ok)
      expect(bad.issues).toEqual([{ path: "value", message: "value: Write it as 'username:password'." }]);
    for (const role of ["editor", "viewer"] as const) {
      asKey(shop.keys[role]);
      const refused = await createCredentialAction({
        name: "Mine",
        kind: "bearer",
        value: "viewer-1111",
        allowedHosts: ["mine.example"],
      });
      expect(refused).toMatchObject({ ok: false, code: "forbidden" });
    }
    expect(await page(shop.keys.viewer)).not.toContain("Mine");
  });

  test("rotate changes the last 4 characters the page shows and when it was rotated", async () => {
    asKey(shop.keys.editor);
    expect(await rotateCredentialAction({ id: unusedId, value: "whsec-editor-0000" })).toMatchObject({
      ok: false,
      code: "forbidden",
    });
    asKey(shop.keys.admin);
    const rotated = await rotateCredentialAction({ id: unusedId, value: "whsec-rotated-7777" });
    expect(rotated).toMatchObject({ ok: true, data: { last4: "7777", rotatedAt: expect.any(String) } });
    expect(JSON.stringify(rotated)).not.toContain("whsec-rotated");
    const html = await page(shop.keys.admin);
    expect(html).toContain("…7777");
    expect(html).not.toContain("…5555");
    const refused = await rotateCredentialAction({ id: unusedId, value: "two\nlines" });
    expect(refused).toMatchObject({ ok: false, error: expect.stringContaining("A secret is one line.") });
  });

  test("delete is refused, naming the automation, while an active one uses it; an unused one goes", async () => {
    asKey(shop.keys.admin);
    const refused = await deleteCredentialAction({ id: warehouseId });
    expect(refused).toMatchObject({ ok: false, code: "conflict" });
    if (!refused.ok) expect(refused.error).toContain("'Tell the warehouse'");
    expect(await deleteCredentialAction({ id: unusedId })).toEqual({ ok: true, data: { id: unusedId } });
    const html = await page(shop.keys.admin);
    expect(html).toContain("Warehouse API");
    expect(html).not.toContain("Old signing secret");
    asKey(empty.keys.admin);
    expect(await deleteCredentialAction({ id: warehouseId })).toMatchObject({ ok: false, code: "not_found" });
  });
});
