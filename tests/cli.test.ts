import { afterEach, expect, test, vi } from "vitest";
import { buildProgram } from "@/bin/cli";
import { findApiKey } from "@/lib/auth/api-keys";
import { getAuth } from "@/lib/auth/auth";
import { findTenantBySlug } from "@/lib/auth/tenants";
import { listMembers } from "@/lib/auth/users";

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
});

test("an unknown shop is reported in plain English", async () => {
  await expect(tillflow("api-key", "create", "--tenant", "no-such-shop")).rejects.toThrow(
    "The shop 'no-such-shop' was not found.",
  );
});
