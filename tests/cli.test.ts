import { eq } from "drizzle-orm";
import { afterEach, expect, test, vi } from "vitest";
import { buildProgram } from "@/bin/cli";
import { findApiKey } from "@/lib/auth/api-keys";
import { getAuth } from "@/lib/auth/auth";
import { findTenantBySlug } from "@/lib/auth/tenants";
import { listMembers } from "@/lib/auth/users";
import { getAutomation, listAutomations } from "@/lib/automations/service";
import { getDb } from "@/lib/db/client";
import { automationRuns } from "@/lib/db/schema";

afterEach(() => vi.restoreAllMocks());

async function tillflow(...args: string[]): Promise<string[]> {
  const printed: string[] = [];
  vi.spyOn(console, "log").mockImplementation((line: string) => void printed.push(line));
  await buildProgram().parseAsync(["node", "tillflow", ...args]);
  vi.restoreAllMocks();
  return printed;
}

test("tenant create, user create and api-key create set up a working shop", async () => {
  expect(await tillflow("tenant", "create", "corner-shop", "--name", "Corner Shop")).toEqual([
    expect.stringMatching(/^Created shop 'corner-shop'/),
  ]);
  const tenant = await findTenantBySlug("corner-shop");
  expect(tenant.name).toBe("Corner Shop");

  const userLines = await tillflow(
    "user",
    "create",
    "--tenant",
    "corner-shop",
    "--email",
    "owner@corner.test",
    "--role",
    "admin",
  );
  expect(userLines[0]).toBe("Added owner@corner.test to 'corner-shop' as admin.");
  const password = userLines[1]!.replace("Password: ", "");
  const signIn = await getAuth().api.signInEmail({
    body: { email: "owner@corner.test", password },
    asResponse: true,
  });
  expect(signIn.status).toBe(200);
  expect((await listMembers(tenant.id)).map((m) => m.role)).toEqual(["admin"]);

  const [key] = await tillflow("api-key", "create", "--tenant", "corner-shop", "--role", "viewer");
  expect(await findApiKey(key!)).toMatchObject({ tenantId: tenant.id, role: "viewer" });
});

test("seed creates the demo shop once", async () => {
  const [first] = await tillflow("seed");
  expect(first).toMatch(/^Seeded "Demo Store"/);
  const [second] = await tillflow("seed");
  expect(second).toBe("The demo shop already exists; nothing changed.");
  const demo = await findTenantBySlug("demo");
  expect((await listMembers(demo.id)).map((m) => m.email)).toEqual([
    "admin@demo.test",
    "editor@demo.test",
    "viewer@demo.test",
  ]);
  // Example automations, published and on (one with a wait), and no run started by the seed itself.
  const { items } = await listAutomations(demo.id, { limit: 50 });
  const examples = items
    .filter((a) => a.name.startsWith("Example: "))
    .sort((a, b) => a.name.localeCompare(b.name));
  expect(examples.map((a) => [a.name, a.status, a.version])).toEqual([
    ["Example: ask for a review 2 days after delivery", "active", 1],
    ["Example: escalate orders unfulfilled after 24 hours", "active", 1],
    ["Example: tag VIP customers", "active", 1],
  ]);
  const review = await getAutomation(demo.id, examples[0]!.id);
  expect(review.activeGraph?.nodes.some((n) => n.type === "auto.control.wait")).toBe(true);
  const runs = await getDb().select().from(automationRuns).where(eq(automationRuns.tenantId, demo.id));
  expect(runs).toEqual([]);
});

test("an unknown shop is reported in plain English", async () => {
  await expect(tillflow("api-key", "create", "--tenant", "no-such-shop")).rejects.toThrow(
    "The shop 'no-such-shop' was not found.",
  );
});
