import { execFile } from "node:child_process";
import crypto from "node:crypto";
import path from "node:path";
import { verifyPassword } from "better-auth/crypto";
import { eq } from "drizzle-orm";
import { afterEach, expect, test, vi } from "vitest";
import { findApiKey } from "@/lib/auth/api-keys";
import { getAuth } from "@/lib/auth/auth";
import { findTenantBySlug } from "@/lib/auth/tenants";
import { listMembers } from "@/lib/auth/users";
import { getAutomation } from "@/lib/automations/lifecycle/read";
import { listAutomations } from "@/lib/automations/lifecycle/list";
import { getDb } from "@/lib/db/client";
import { accounts, automationRuns, users } from "@/lib/db/schema";
import { enqueueJobs } from "@/lib/jobs";
import { tillflow, tillflowWith } from "@/tests/helpers/cli";

afterEach(() => vi.restoreAllMocks());

/** Whether `password` is the account's: checked on its stored hash (each command closes the pool). */
async function passwordIs(email: string, password: string): Promise<boolean> {
  const [row] = await getDb()
    .select({ hash: accounts.password })
    .from(accounts)
    .innerJoin(users, eq(users.id, accounts.userId))
    .where(eq(users.email, email));
  return row?.hash ? verifyPassword({ hash: row.hash, password }) : false;
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

  const [key] = await tillflow("api-key", "create", "--tenant", "corner-shop", "--role", "editor");
  expect(await findApiKey(key!)).toMatchObject({ tenantId: tenant.id, role: "editor" });
});

test("api-key create makes a viewer key unless asked for more", async () => {
  await tillflow("tenant", "create", "key-shop", "--name", "Key Shop");
  const [key] = await tillflow("api-key", "create", "--tenant", "key-shop");
  expect(await findApiKey(key!)).toMatchObject({ role: "viewer" });
});

test("user create takes the password piped on stdin, and prints none", async () => {
  await tillflow("tenant", "create", "pipe-shop", "--name", "Pipe Shop");
  const args = ["user", "create", "--tenant", "pipe-shop", "--email", "piped@shop.test", "--role", "editor"];
  const { printed, stderr } = await tillflowWith("piped-password-1\n", args);
  expect(printed).toEqual(["Added piped@shop.test to 'pipe-shop' as editor."]);
  expect(stderr).toBe("");
  expect(await passwordIs("piped@shop.test", "piped-password-1")).toBe(true);
});

test("user create still takes --password, with a warning that others can see it", async () => {
  await tillflow("tenant", "create", "argv-shop", "--name", "Argv Shop");
  const { printed, stderr } = await tillflowWith("", [
    ...["user", "create", "--tenant", "argv-shop", "--email", "argv@shop.test", "--role", "viewer"],
    ...["--password", "argv-password-1"],
  ]);
  expect(printed).toEqual(["Added argv@shop.test to 'argv-shop' as viewer."]);
  expect(stderr).toMatch(/^Warning: --password is visible to other users of this machine/);
  expect(await passwordIs("argv@shop.test", "argv-password-1")).toBe(true);
});

test("the installed command reads the password from a pipe", async () => {
  await tillflow("tenant", "create", "bin-shop", "--name", "Bin Shop");
  const bin = path.join(process.cwd(), "bin/tillflow.mjs");
  const output = await new Promise<string>((resolve, reject) => {
    const child = execFile(
      process.execPath,
      [bin, "user", "create", "--tenant", "bin-shop", "--email", "bin@shop.test", "--role", "admin"],
      { env: process.env, encoding: "utf8" },
      (error, stdout, stderr) => (error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout)),
    );
    child.stdin!.end("bin-password-1\n");
  });
  expect(output.trim().split("\n").at(-1)).toBe("Added bin@shop.test to 'bin-shop' as admin.");
  expect(await passwordIs("bin@shop.test", "bin-password-1")).toBe(true);
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

test("tenant set-weight sets a shop's share, refuses a bad weight, and queue names the shops with the most work waiting", async () => {
  await tillflow("tenant", "create", "big-plan", "--name", "Big Plan");
  expect(await tillflow("tenant", "set-weight", "big-plan", "3")).toEqual([
    "Shop 'big-plan' now has weight 3.",
  ]);
  expect((await findTenantBySlug("big-plan")).queueWeight).toBe(3);
  await expect(tillflow("tenant", "set-weight", "big-plan", "0")).rejects.toThrow(
    "A shop's weight is a whole number from 1 to 100, not '0'.",
  );
  await expect(tillflow("tenant", "set-weight", "no-such-shop", "2")).rejects.toThrow(
    "The shop 'no-such-shop'",
  );

  expect(await tillflow("queue")).toEqual(["No shop has work waiting for a worker."]);
  // Two shops' backlogs queued (no worker runs in this file): the bigger first, with its weight.
  const big = await findTenantBySlug("big-plan");
  await tillflow("tenant", "create", "small-plan", "--name", "Small Plan");
  const small = await findTenantBySlug("small-plan");
  const runs = (tenantId: string, n: number) =>
    getDb().transaction((tx) =>
      enqueueJobs(
        tx,
        Array.from({ length: n }, () => ({
          task: "automation_execute" as const,
          payload: { runId: crypto.randomUUID() },
          tenantId,
        })),
      ),
    );
  await runs(big.id, 30);
  await runs(small.id, 2);
  const lines = await tillflow("queue", "--top", "5");
  expect(lines).toHaveLength(1);
  expect(lines[0]!.split("\n").map((line) => line.trim().split(/\s+/))).toEqual([
    ["shop", "waiting", "oldest", "weight"],
    ["big-plan", "30", expect.stringMatching(/^\d+\.\d$/), "s", "3"],
    ["small-plan", "2", expect.stringMatching(/^\d+\.\d$/), "s", "1"],
  ]);
  await expect(tillflow("queue", "--top", "0")).rejects.toThrow(
    "--top must be a whole number from 1 to 100, not '0'.",
  );
});

test("team create, list, set and delete manage a shop's teams, audited as the operator", async () => {
  await tillflow("tenant", "create", "team-shop", "--name", "Team Shop");
  const shop = await findTenantBySlug("team-shop");
  const { addMember } = await import("@/lib/auth/users");
  for (const name of ["ana", "bo"])
    await addMember(shop.id, { email: `${name}@team.test`, role: "editor", password: "tillflow-demo" });
  expect(
    await tillflow(
      "team",
      "create",
      "Finance",
      "--tenant",
      "team-shop",
      "--member",
      "ana@team.test",
      "--member",
      "bo@team.test",
    ),
  ).toEqual([expect.stringMatching(/^Added the team 'Finance' \([0-9a-f-]{36}\) with 2 members\.$/)]);
  expect(await tillflow("team", "list", "--tenant", "team-shop")).toEqual([
    expect.stringMatching(/^[0-9a-f-]{36} {2}Finance {2}ana@team.test, bo@team.test$/),
  ]);
  expect(
    await tillflow(
      "team",
      "set",
      "finance",
      "--tenant",
      "team-shop",
      "--name",
      "Money",
      "--member",
      "bo@team.test",
    ),
  ).toEqual(["The team 'Money' has 1 member."]);
  expect(await tillflow("team", "delete", "Money", "--tenant", "team-shop")).toEqual([
    "Deleted the team 'Money'.",
  ]);
  expect(await tillflow("team", "list", "--tenant", "team-shop")).toEqual(["'team-shop' has no teams."]);
  const { auditEvents } = await import("@/lib/db/schema");
  const audit = await getDb()
    .select()
    .from(auditEvents)
    .where(eq(auditEvents.tenantId, shop.id))
    .orderBy(auditEvents.createdAt);
  expect(audit.filter((a) => a.subjectType === "team").map((a) => [a.action, a.actor])).toEqual([
    ["team.created", "Operator (CLI)"],
    ["team.updated", "Operator (CLI)"],
    ["team.deleted", "Operator (CLI)"],
  ]);
}, 90_000); // six commands, each opening and closing the database
