import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import type { ActionResult } from "@/lib/actions/action";
import { createApiKey } from "@/lib/auth/api-keys";
import { inviteMember } from "@/lib/auth/invitations";
import { addMember } from "@/lib/auth/users";
import { createAlertRule } from "@/lib/alerts/rules";
import { createTeam } from "@/lib/teams/teams";
import { createConnection } from "@/lib/connections/store";
import { createCredential } from "@/lib/credentials/store";
import { builtinAutomation, ensureBuiltins } from "@/lib/automations/schedules/builtins";
import { getDb } from "@/lib/db/client";
import { automationRuns, automationRunWaits, staffTasks } from "@/lib/db/schema";
import { upsertEntity } from "@/lib/entities/service";
import { startStubModel, type StubModel } from "@/tests/helpers/ai-stub";
import { call } from "@/tests/helpers/fixtures";
import { callerOf, createShop, type TestShop } from "@/tests/helpers/shop";
import { flow, publishFlow } from "@/tests/helpers/flows";
import { startTestWorker } from "@/tests/helpers/worker";

/*
 * Every REST route (app/api/v1/**\/route.ts, each method) and every server action (lib/actions/**)
 * must have an entry in the registry below saying how to call it against another shop's data —
 * answered 404, or, for routes with nothing of another shop to address (lists, creates), shown to
 * leave that shop untouched and unseen — and, when it changes anything, how a viewer calls it
 * (answered 403). A new route or action without an entry fails the first test.
 */

// Server actions read the caller from the request headers; here they carry an API key.
const request = vi.hoisted(() => ({ headers: new Headers() }));
vi.mock("next/headers", () => ({ headers: async () => request.headers }));
vi.mock("next/cache", () => ({ refresh: () => {}, revalidatePath: () => {} }));
vi.mock("next/navigation", () => ({
  redirect: (to: string) => {
    throw Object.assign(new Error(`redirect ${to}`), { redirectTo: to });
  },
}));

const ROOT = path.resolve(import.meta.dirname, "../..");
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

interface Reply {
  status: number;
  body: unknown;
}
type Handler = Parameters<typeof call>[0];
type ActionFn = (input: never) => Promise<ActionResult<unknown>>;

/** How one route or action is called as somebody (an API key). */
type Invoke = (key: string) => Promise<Reply>;

interface Entry {
  /** Another shop's admin calls it on this shop's data. */
  crossShop: { expect: 404; invoke: Invoke } | { expect: "isolated"; invoke: Invoke; echoes?: boolean };
  /** A viewer of this shop calls it: 403. Required unless `readOnly`. */
  viewer?: Invoke;
  /** For what only admins may do: an editor of this shop calls it, 403, and changes nothing. */
  editor?: Invoke;
  /** A POST that changes nothing (a preview, a dry run, a search). */
  readOnly?: true;
}

let a: TestShop;
let b: TestShop;
/** The AI builder's model: a stub that always answers with a valid flow. */
let model: StubModel;
/** This shop's records the cases address; none may show up in another shop's replies. */
const ids = {
  automation: "",
  builtin: "",
  run: "",
  wait: "",
  approval: "",
  task: "",
  user: "",
  invitation: "",
  apiKey: "",
  credential: "",
  connection: "",
  alert: "",
  team: "",
  entity: "a-only-order",
  customer: "a-only-customer",
};

beforeAll(async () => {
  model = await startStubModel(() =>
    JSON.stringify({
      name: "Tag paid orders",
      trigger: { type: "auto.trigger.order_paid" },
      steps: [{ kind: "action", type: "auto.action.add_tag", params: { tag: "paid" } }],
    }),
  );
  process.env.AI_BASE_URL = model.baseURL;
  process.env.AI_MODEL = "stub";
  a = await createShop();
  b = await createShop();
  const worker = await startTestWorker();
  try {
    //  order_created ──▶ create_task ──▶ Wait 5 minutes ──▶ add_tag
    ids.automation = await publishFlow(
      a.keys.editor,
      "Guarded",
      flow(
        [
          { id: "t", type: "auto.trigger.order_created" },
          { id: "task", type: "auto.action.create_task", params: { title: "Call {entity.number}" } },
          { id: "w", type: "auto.control.wait", params: { duration: 5, unit: "minutes" } },
          { id: "tag", type: "auto.action.add_tag", params: { tag: "later" } },
        ],
        [
          ["t", "task"],
          ["task", "w"],
          ["w", "tag"],
        ],
      ),
    );
    //  order_paid ──▶ approval ──approved──▶ add_tag
    const review = await publishFlow(
      a.keys.editor,
      "Review",
      flow(
        [
          { id: "t", type: "auto.trigger.order_paid" },
          {
            id: "ok",
            type: "auto.control.approval",
            params: { title: "Review", timeoutHours: 72, approverRole: "editor" },
          },
          { id: "tag", type: "auto.action.add_tag", params: { tag: "ok" } },
        ],
        [
          ["t", "ok"],
          ["ok", "tag", "approved"],
        ],
      ),
    );
    // Its attributes name it, so a leak of this shop's attribute paths would show its id.
    const order = {
      number: "#1",
      status: "pending",
      total: 10,
      currency: "EUR",
      attributes: { ref: ids.entity },
    };
    await upsertEntity(
      a.tenant.id,
      "customer",
      ids.customer,
      { email: "a-only@example.com", acceptsMarketing: false },
      "test",
    );
    await upsertEntity(a.tenant.id, "order", ids.entity, order, "test");
    await upsertEntity(a.tenant.id, "order", ids.entity, { ...order, status: "paid" }, "test");
    // expect.poll only works inside a test; this is setup, so it polls by hand.
    for (let tries = 0; tries < 300; tries++) {
      const pending = await getDb()
        .select({ id: automationRunWaits.id })
        .from(automationRunWaits)
        .where(and(eq(automationRunWaits.tenantId, a.tenant.id), eq(automationRunWaits.status, "pending")));
      if (pending.length === 2) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const waits = await getDb()
      .select()
      .from(automationRunWaits)
      .where(eq(automationRunWaits.tenantId, a.tenant.id));
    const delay = waits.find((w) => w.automationId === ids.automation)!;
    ids.wait = delay.id;
    ids.run = delay.runId;
    ids.approval = waits.find((w) => w.automationId === review)!.id;
    const [task] = await getDb().select().from(staffTasks).where(eq(staffTasks.tenantId, a.tenant.id));
    ids.task = task!.id;
  } finally {
    await worker.stop();
  }
  await ensureBuiltins(a.tenant.id);
  ids.builtin = (await builtinAutomation(a.tenant.id, "mark-carts-abandoned"))!.id;
  ids.user = (
    await addMember(a.tenant.id, { email: "staff@guards.test", role: "viewer", password: "password-1" })
  ).userId;
  ids.invitation = (
    await inviteMember(await callerOf(a, "admin"), { email: "invited@guards.test", role: "editor" })
  ).invitation.id;
  ids.apiKey = (await createApiKey(a.tenant.id, { name: "Zap", role: "viewer" })).apiKey.id;
  ids.credential = (
    await createCredential(await callerOf(a, "admin"), {
      name: "Warehouse",
      kind: "bearer",
      value: "guarded-1234",
      allowedHosts: ["api.warehouse.test"],
    })
  ).id;
  ids.connection = (
    await createConnection(await callerOf(a, "admin"), {
      platform: "shopify",
      name: "a-only.myshopify.com",
      secret: "shpss_guarded_1234",
    })
  ).id;
  ids.alert = (
    await createAlertRule(await callerOf(a, "admin"), {
      kind: "failed_runs",
      automationId: ids.automation,
      channel: { type: "email" },
    })
  ).id;
  ids.team = (await createTeam(await callerOf(a, "admin"), { name: "A-only team" })).id;
  const [run] = await getDb().select().from(automationRuns).where(eq(automationRuns.id, ids.run));
  expect(run?.tenantId).toBe(a.tenant.id);
});

afterAll(async () => {
  request.headers = new Headers();
  delete process.env.AI_BASE_URL;
  delete process.env.AI_MODEL;
  await model.close();
});

// ── Calling routes and actions ───────────────────────────────────────────────────────────────

const routes = new Map<string, Handler>();
const actions = new Map<string, ActionFn>();

function route(
  key: string,
  options: { params?: () => Record<string, string>; body?: () => unknown; query?: string } = {},
): Invoke {
  return (apiKey) => {
    const [method, pattern] = key.split(" ") as [string, string];
    const handler = routes.get(key);
    if (!handler) throw new Error(`No handler for ${key}`);
    return call(handler, {
      method,
      key: apiKey,
      path: `${pattern}${options.query ?? ""}`,
      params: options.params?.(),
      body: options.body?.(),
    });
  };
}

const STATUS_OF_CODE: Record<string, number> = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  invalid: 422,
  provider_error: 502,
  unavailable: 503,
  timeout: 504,
};

function action(key: string, input: () => unknown): Invoke {
  return async (apiKey) => {
    const fn = actions.get(key);
    if (!fn) throw new Error(`No action ${key}`);
    request.headers = new Headers({ authorization: `Bearer ${apiKey}` });
    try {
      const result = await fn(input() as never);
      if (result.ok) return { status: 200, body: result.data };
      return { status: result.code ? (STATUS_OF_CODE[result.code] ?? 500) : 422, body: result };
    } catch (error) {
      // createFromTemplateAction redirects to the new automation on success.
      if (error instanceof Error && "redirectTo" in error)
        return { status: 303, body: { to: error.redirectTo } };
      throw error;
    }
  };
}

const id = () => ({ id: ids.automation });
const A = "/api/v1/automations/[id]";
const credential = () => ({ id: ids.credential });
const C = "/api/v1/credentials/[id]";
const connection = () => ({ id: ids.connection });
const S = "/api/v1/connections/[id]";
const alert = () => ({ id: ids.alert });
const AL = "/api/v1/alerts/[id]";
const team = () => ({ id: ids.team });
const T = "/api/v1/teams/[id]";

// ── The registry ─────────────────────────────────────────────────────────────────────────────

const REGISTRY: Record<string, Entry> = {
  // REST: automations
  "GET /api/v1/automations": { crossShop: { expect: "isolated", invoke: route("GET /api/v1/automations") } },
  "POST /api/v1/automations": {
    crossShop: {
      expect: "isolated",
      invoke: route("POST /api/v1/automations", {
        body: () => ({ name: "B's", graph: { nodes: [], edges: [] } }),
      }),
    },
    viewer: route("POST /api/v1/automations", {
      body: () => ({ name: "V", graph: { nodes: [], edges: [] } }),
    }),
  },
  "POST /api/v1/ai/build": {
    // Saves nothing: the other shop gets a flow of its own, from its own sentence.
    crossShop: {
      expect: "isolated",
      invoke: route("POST /api/v1/ai/build", { body: () => ({ prompt: "Tag paid orders" }) }),
    },
    viewer: route("POST /api/v1/ai/build", { body: () => ({ prompt: "Tag paid orders" }) }),
  },
  // The emergency brake: the other shop's admin brakes (and releases) only their own shop.
  "GET /api/v1/automations/brake": {
    crossShop: { expect: "isolated", invoke: route("GET /api/v1/automations/brake") },
  },
  "POST /api/v1/automations/pause-all": {
    crossShop: { expect: "isolated", invoke: route("POST /api/v1/automations/pause-all") },
    viewer: route("POST /api/v1/automations/pause-all"),
    editor: route("POST /api/v1/automations/pause-all"),
  },
  "POST /api/v1/automations/resume-all": {
    crossShop: { expect: "isolated", invoke: route("POST /api/v1/automations/resume-all") },
    viewer: route("POST /api/v1/automations/resume-all"),
    editor: route("POST /api/v1/automations/resume-all"),
  },
  "lib/actions/automations/brake.ts#getBrakeImpactAction": {
    readOnly: true,
    crossShop: {
      expect: "isolated",
      invoke: action("lib/actions/automations/brake.ts#getBrakeImpactAction", () => ({})),
    },
  },
  "lib/actions/automations/brake.ts#pullBrakeAction": {
    crossShop: {
      expect: "isolated",
      invoke: action("lib/actions/automations/brake.ts#pullBrakeAction", () => ({})),
    },
    viewer: action("lib/actions/automations/brake.ts#pullBrakeAction", () => ({})),
    editor: action("lib/actions/automations/brake.ts#pullBrakeAction", () => ({})),
  },
  "lib/actions/automations/brake.ts#releaseBrakeAction": {
    crossShop: {
      expect: "isolated",
      invoke: action("lib/actions/automations/brake.ts#releaseBrakeAction", () => ({})),
    },
    viewer: action("lib/actions/automations/brake.ts#releaseBrakeAction", () => ({})),
    editor: action("lib/actions/automations/brake.ts#releaseBrakeAction", () => ({})),
  },
  [`GET ${A}`]: { crossShop: { expect: 404, invoke: route(`GET ${A}`, { params: id }) } },
  [`DELETE ${A}`]: {
    crossShop: { expect: 404, invoke: route(`DELETE ${A}`, { params: id }) },
    viewer: route(`DELETE ${A}`, { params: id }),
  },
  [`POST ${A}/activate`]: {
    crossShop: { expect: 404, invoke: route(`POST ${A}/activate`, { params: id }) },
    viewer: route(`POST ${A}/activate`, { params: id }),
  },
  [`PUT ${A}/caps`]: {
    crossShop: {
      expect: 404,
      invoke: route(`PUT ${A}/caps`, { params: id, body: () => ({ maxRunsPerHour: 1 }) }),
    },
    viewer: route(`PUT ${A}/caps`, { params: id, body: () => ({ maxRunsPerHour: 1 }) }),
  },
  [`GET ${A}/performance`]: {
    crossShop: { expect: 404, invoke: route(`GET ${A}/performance`, { params: id }) },
  },
  [`GET ${A}/attributions`]: {
    crossShop: { expect: 404, invoke: route(`GET ${A}/attributions`, { params: id }) },
  },
  [`PUT ${A}/holdout`]: {
    crossShop: {
      expect: 404,
      invoke: route(`PUT ${A}/holdout`, { params: id, body: () => ({ percent: 10 }) }),
    },
    viewer: route(`PUT ${A}/holdout`, { params: id, body: () => ({ percent: 10 }) }),
  },
  [`POST ${A}/splits/[stepId]/send-down`]: {
    crossShop: {
      expect: 404,
      invoke: route(`POST ${A}/splits/[stepId]/send-down`, {
        params: () => ({ ...id(), stepId: "split" }),
        body: () => ({ branch: "a" }),
      }),
    },
    viewer: route(`POST ${A}/splits/[stepId]/send-down`, {
      params: () => ({ ...id(), stepId: "split" }),
      body: () => ({ branch: "a" }),
    }),
  },
  [`PUT ${A}/messaging`]: {
    crossShop: {
      expect: 404,
      invoke: route(`PUT ${A}/messaging`, {
        params: id,
        body: () => ({ priority: "high", expireAfterHours: 24 }),
      }),
    },
    viewer: route(`PUT ${A}/messaging`, {
      params: id,
      body: () => ({ priority: "high", expireAfterHours: 24 }),
    }),
  },
  // The shop's own settings: another shop's admin reads and sets theirs, never this shop's.
  "GET /api/v1/settings/attribution": {
    crossShop: { expect: "isolated", invoke: route("GET /api/v1/settings/attribution") },
  },
  "PUT /api/v1/settings/attribution": {
    crossShop: {
      expect: "isolated",
      invoke: route("PUT /api/v1/settings/attribution", { body: () => ({ windowDays: 7 }) }),
    },
    viewer: route("PUT /api/v1/settings/attribution", { body: () => ({ windowDays: 7 }) }),
    editor: route("PUT /api/v1/settings/attribution", { body: () => ({ windowDays: 7 }) }),
  },
  "GET /api/v1/shop/messaging": {
    crossShop: { expect: "isolated", invoke: route("GET /api/v1/shop/messaging") },
  },
  "PUT /api/v1/shop/messaging": {
    crossShop: {
      expect: "isolated",
      invoke: route("PUT /api/v1/shop/messaging", { body: () => ({ quietHours: null }) }),
    },
    viewer: route("PUT /api/v1/shop/messaging", { body: () => ({ quietHours: null }) }),
    editor: route("PUT /api/v1/shop/messaging", { body: () => ({ quietHours: null }) }),
  },
  [`POST ${A}/pause`]: {
    crossShop: { expect: 404, invoke: route(`POST ${A}/pause`, { params: id }) },
    viewer: route(`POST ${A}/pause`, { params: id }),
  },
  [`PUT ${A}/draft`]: {
    crossShop: { expect: 404, invoke: route(`PUT ${A}/draft`, { params: id, body: () => ({ name: "x" }) }) },
    viewer: route(`PUT ${A}/draft`, { params: id, body: () => ({ name: "x" }) }),
  },
  [`POST ${A}/dry-run`]: {
    readOnly: true,
    crossShop: { expect: 404, invoke: route(`POST ${A}/dry-run`, { params: id, body: () => ({}) }) },
  },
  // Changes nothing, yet editors only: a draft's code step runs its script on the shop's records.
  [`POST ${A}/backtest`]: {
    crossShop: { expect: 404, invoke: route(`POST ${A}/backtest`, { params: id, body: () => ({}) }) },
    viewer: route(`POST ${A}/backtest`, { params: id, body: () => ({}) }),
  },
  [`GET ${A}/fires`]: { crossShop: { expect: 404, invoke: route(`GET ${A}/fires`, { params: id }) } },
  [`POST ${A}/publish`]: {
    crossShop: { expect: 404, invoke: route(`POST ${A}/publish`, { params: id, body: () => ({}) }) },
    viewer: route(`POST ${A}/publish`, { params: id, body: () => ({}) }),
  },
  [`POST ${A}/reset-to-builtin`]: {
    crossShop: {
      expect: 404,
      invoke: route(`POST ${A}/reset-to-builtin`, { params: () => ({ id: ids.builtin }) }),
    },
    viewer: route(`POST ${A}/reset-to-builtin`, { params: () => ({ id: ids.builtin }) }),
  },
  [`POST ${A}/restore`]: {
    crossShop: { expect: 404, invoke: route(`POST ${A}/restore`, { params: id }) },
    viewer: route(`POST ${A}/restore`, { params: id }),
  },
  [`POST ${A}/run-now`]: {
    crossShop: { expect: 404, invoke: route(`POST ${A}/run-now`, { params: () => ({ id: ids.builtin }) }) },
    viewer: route(`POST ${A}/run-now`, { params: () => ({ id: ids.builtin }) }),
  },
  [`GET ${A}/versions`]: { crossShop: { expect: 404, invoke: route(`GET ${A}/versions`, { params: id }) } },
  [`POST ${A}/versions/[version]/revert`]: {
    crossShop: {
      expect: 404,
      invoke: route(`POST ${A}/versions/[version]/revert`, { params: () => ({ ...id(), version: "1" }) }),
    },
    viewer: route(`POST ${A}/versions/[version]/revert`, { params: () => ({ ...id(), version: "1" }) }),
  },
  [`POST ${A}/try-later`]: {
    crossShop: {
      expect: 404,
      invoke: route(`POST ${A}/try-later`, { params: id, body: () => ({ step: "check-in" }) }),
    },
    viewer: route(`POST ${A}/try-later`, { params: id, body: () => ({ step: "check-in" }) }),
  },
  [`GET ${A}/waiting`]: { crossShop: { expect: 404, invoke: route(`GET ${A}/waiting`, { params: id }) } },
  [`POST ${A}/waiting/cancel-all`]: {
    crossShop: { expect: 404, invoke: route(`POST ${A}/waiting/cancel-all`, { params: id }) },
    viewer: route(`POST ${A}/waiting/cancel-all`, { params: id }),
  },
  // REST: approvals, audit, waits, runs, tasks
  "GET /api/v1/approvals": {
    crossShop: { expect: "isolated", invoke: route("GET /api/v1/approvals", { query: "?status=pending" }) },
  },
  "POST /api/v1/approvals/[waitId]": {
    crossShop: {
      expect: 404,
      invoke: route("POST /api/v1/approvals/[waitId]", {
        params: () => ({ waitId: ids.approval }),
        body: () => ({ decision: "approved" }),
      }),
    },
    viewer: route("POST /api/v1/approvals/[waitId]", {
      params: () => ({ waitId: ids.approval }),
      body: () => ({ decision: "approved" }),
    }),
  },
  "GET /api/v1/audit": { crossShop: { expect: "isolated", invoke: route("GET /api/v1/audit") } },
  "GET /api/v1/waiting": { crossShop: { expect: "isolated", invoke: route("GET /api/v1/waiting") } },
  "POST /api/v1/waiting/cancel-all": {
    crossShop: { expect: "isolated", invoke: route("POST /api/v1/waiting/cancel-all") },
    viewer: route("POST /api/v1/waiting/cancel-all"),
  },
  "POST /api/v1/waits/[id]/cancel": {
    crossShop: {
      expect: 404,
      invoke: route("POST /api/v1/waits/[id]/cancel", { params: () => ({ id: ids.wait }) }),
    },
    viewer: route("POST /api/v1/waits/[id]/cancel", { params: () => ({ id: ids.wait }) }),
  },
  "POST /api/v1/waits/[id]/resume-now": {
    crossShop: {
      expect: 404,
      invoke: route("POST /api/v1/waits/[id]/resume-now", { params: () => ({ id: ids.wait }) }),
    },
    viewer: route("POST /api/v1/waits/[id]/resume-now", { params: () => ({ id: ids.wait }) }),
  },
  "GET /api/v1/runs": { crossShop: { expect: "isolated", invoke: route("GET /api/v1/runs") } },
  "GET /api/v1/runs/[id]": {
    crossShop: { expect: 404, invoke: route("GET /api/v1/runs/[id]", { params: () => ({ id: ids.run }) }) },
  },
  "POST /api/v1/runs/[id]/rerun": {
    crossShop: {
      expect: 404,
      invoke: route("POST /api/v1/runs/[id]/rerun", { params: () => ({ id: ids.run }) }),
    },
    viewer: route("POST /api/v1/runs/[id]/rerun", { params: () => ({ id: ids.run }) }),
  },
  "POST /api/v1/runs/rerun": {
    crossShop: {
      expect: "isolated",
      invoke: route("POST /api/v1/runs/rerun", { body: () => ({ ids: [ids.run] }) }),
    },
    viewer: route("POST /api/v1/runs/rerun", { body: () => ({ ids: [ids.run] }) }),
  },
  "POST /api/v1/runs/[id]/release": {
    crossShop: {
      expect: 404,
      invoke: route("POST /api/v1/runs/[id]/release", { params: () => ({ id: ids.run }) }),
    },
    viewer: route("POST /api/v1/runs/[id]/release", { params: () => ({ id: ids.run }) }),
  },
  "POST /api/v1/runs/release": {
    crossShop: {
      expect: "isolated",
      invoke: route("POST /api/v1/runs/release", { body: () => ({ ids: [ids.run] }) }),
    },
    viewer: route("POST /api/v1/runs/release", { body: () => ({ ids: [ids.run] }) }),
  },
  "POST /api/v1/runs/[id]/discard": {
    crossShop: {
      expect: 404,
      invoke: route("POST /api/v1/runs/[id]/discard", { params: () => ({ id: ids.run }) }),
    },
    viewer: route("POST /api/v1/runs/[id]/discard", { params: () => ({ id: ids.run }) }),
  },
  "POST /api/v1/runs/discard": {
    crossShop: {
      expect: "isolated",
      invoke: route("POST /api/v1/runs/discard", { body: () => ({ ids: [ids.run] }) }),
    },
    viewer: route("POST /api/v1/runs/discard", { body: () => ({ ids: [ids.run] }) }),
  },
  "GET /api/v1/tasks": { crossShop: { expect: "isolated", invoke: route("GET /api/v1/tasks") } },
  "POST /api/v1/tasks/[id]/done": {
    crossShop: {
      expect: 404,
      invoke: route("POST /api/v1/tasks/[id]/done", { params: () => ({ id: ids.task }) }),
    },
    viewer: route("POST /api/v1/tasks/[id]/done", { params: () => ({ id: ids.task }) }),
  },
  "GET /api/v1/outbox": { crossShop: { expect: "isolated", invoke: route("GET /api/v1/outbox") } },
  "GET /api/v1/customers/[id]/consent": {
    crossShop: {
      expect: 404,
      invoke: route("GET /api/v1/customers/[id]/consent", { params: () => ({ id: ids.customer }) }),
    },
  },
  "POST /api/v1/customers/[id]/resubscribe": {
    crossShop: {
      expect: 404,
      invoke: route("POST /api/v1/customers/[id]/resubscribe", {
        params: () => ({ id: ids.customer }),
        body: () => ({ reason: "Asked at the counter" }),
      }),
    },
    viewer: route("POST /api/v1/customers/[id]/resubscribe", {
      params: () => ({ id: ids.customer }),
      body: () => ({ reason: "Asked at the counter" }),
    }),
  },
  "GET /api/v1/automations/[id]/messages": {
    crossShop: {
      expect: 404,
      invoke: route("GET /api/v1/automations/[id]/messages", { params: () => ({ id: ids.automation }) }),
    },
  },
  "GET /api/v1/node-types": { crossShop: { expect: "isolated", invoke: route("GET /api/v1/node-types") } },
  // Public: the API's description, the same for everyone (tests/api/openapi.test.ts).
  "GET /api/v1/openapi.json": {
    crossShop: { expect: "isolated", invoke: route("GET /api/v1/openapi.json") },
  },
  "POST /api/v1/schedules/preview": {
    readOnly: true,
    crossShop: {
      expect: "isolated",
      invoke: route("POST /api/v1/schedules/preview", {
        body: () => ({ cron: "0 9 * * *", timezone: "UTC" }),
      }),
    },
  },
  // REST: entities and events
  "GET /api/v1/entities/[domain]/[id]": {
    crossShop: {
      expect: 404,
      invoke: route("GET /api/v1/entities/[domain]/[id]", {
        params: () => ({ domain: "order", id: ids.entity }),
      }),
    },
  },
  "PUT /api/v1/entities/[domain]/[id]": {
    // An upsert: another shop's PUT creates its own record of that id and leaves this one alone.
    crossShop: {
      expect: "isolated",
      echoes: true,
      invoke: route("PUT /api/v1/entities/[domain]/[id]", {
        params: () => ({ domain: "order", id: ids.entity }),
        body: () => ({ number: "#B", status: "cancelled", total: 1, currency: "USD" }),
      }),
    },
    viewer: route("PUT /api/v1/entities/[domain]/[id]", {
      params: () => ({ domain: "order", id: ids.entity }),
      body: () => ({ number: "#V", status: "cancelled", total: 1, currency: "USD" }),
    }),
  },
  "PATCH /api/v1/entities/[domain]/[id]": {
    crossShop: {
      expect: 404,
      invoke: route("PATCH /api/v1/entities/[domain]/[id]", {
        params: () => ({ domain: "order", id: ids.entity }),
        body: () => ({ status: "cancelled" }),
      }),
    },
    viewer: route("PATCH /api/v1/entities/[domain]/[id]", {
      params: () => ({ domain: "order", id: ids.entity }),
      body: () => ({ status: "cancelled" }),
    }),
  },
  "DELETE /api/v1/entities/[domain]/[id]": {
    crossShop: {
      expect: 404,
      invoke: route("DELETE /api/v1/entities/[domain]/[id]", {
        params: () => ({ domain: "order", id: ids.entity }),
      }),
    },
    viewer: route("DELETE /api/v1/entities/[domain]/[id]", {
      params: () => ({ domain: "order", id: ids.entity }),
    }),
  },
  "POST /api/v1/events": {
    crossShop: {
      expect: "isolated",
      echoes: true,
      invoke: route("POST /api/v1/events", {
        body: () => ({ type: "order.paid", domain: "order", entityId: ids.entity }),
      }),
    },
    viewer: route("POST /api/v1/events", {
      body: () => ({ type: "order.paid", domain: "order", entityId: ids.entity }),
    }),
  },

  // REST: credentials
  "GET /api/v1/credentials": { crossShop: { expect: "isolated", invoke: route("GET /api/v1/credentials") } },
  "POST /api/v1/credentials": {
    crossShop: {
      expect: "isolated",
      invoke: route("POST /api/v1/credentials", {
        body: () => ({ name: "B's", kind: "bearer", value: "theirs-5678", allowedHosts: ["b.test"] }),
      }),
    },
    viewer: route("POST /api/v1/credentials", {
      body: () => ({ name: "V", kind: "bearer", value: "viewer-5678", allowedHosts: ["v.test"] }),
    }),
    editor: route("POST /api/v1/credentials", {
      body: () => ({ name: "E", kind: "bearer", value: "editor-5678", allowedHosts: ["e.test"] }),
    }),
  },
  [`GET ${C}`]: { crossShop: { expect: 404, invoke: route(`GET ${C}`, { params: credential }) } },
  [`PUT ${C}`]: {
    crossShop: {
      expect: 404,
      invoke: route(`PUT ${C}`, { params: credential, body: () => ({ value: "stolen-0000" }) }),
    },
    viewer: route(`PUT ${C}`, { params: credential, body: () => ({ value: "viewer-0000" }) }),
    editor: route(`PUT ${C}`, { params: credential, body: () => ({ value: "editor-0000" }) }),
  },
  [`PATCH ${C}`]: {
    crossShop: {
      expect: 404,
      invoke: route(`PATCH ${C}`, { params: credential, body: () => ({ allowedHosts: ["b.test"] }) }),
    },
    viewer: route(`PATCH ${C}`, { params: credential, body: () => ({ allowedHosts: ["v.test"] }) }),
    editor: route(`PATCH ${C}`, { params: credential, body: () => ({ allowedHosts: ["e.test"] }) }),
  },
  [`DELETE ${C}`]: {
    crossShop: { expect: 404, invoke: route(`DELETE ${C}`, { params: credential, query: "?confirm=true" }) },
    viewer: route(`DELETE ${C}`, { params: credential, query: "?confirm=true" }),
    editor: route(`DELETE ${C}`, { params: credential, query: "?confirm=true" }),
  },

  // REST: store connections
  "GET /api/v1/connections": { crossShop: { expect: "isolated", invoke: route("GET /api/v1/connections") } },
  "POST /api/v1/connections": {
    crossShop: {
      expect: "isolated",
      invoke: route("POST /api/v1/connections", {
        body: () => ({ platform: "shopify", name: "b.myshopify.com", secret: "theirs-56789" }),
      }),
    },
    viewer: route("POST /api/v1/connections", {
      body: () => ({ platform: "shopify", name: "v.myshopify.com", secret: "viewer-56789" }),
    }),
  },
  [`GET ${S}`]: { crossShop: { expect: 404, invoke: route(`GET ${S}`, { params: connection }) } },
  [`DELETE ${S}`]: {
    crossShop: { expect: 404, invoke: route(`DELETE ${S}`, { params: connection }) },
    viewer: route(`DELETE ${S}`, { params: connection }),
  },
  [`GET ${S}/deliveries`]: {
    crossShop: { expect: 404, invoke: route(`GET ${S}/deliveries`, { params: connection }) },
  },
  [`GET ${S}/subscriptions`]: {
    crossShop: { expect: 404, invoke: route(`GET ${S}/subscriptions`, { params: connection }) },
  },
  [`POST ${S}/subscriptions/repair`]: {
    crossShop: { expect: 404, invoke: route(`POST ${S}/subscriptions/repair`, { params: connection }) },
    viewer: route(`POST ${S}/subscriptions/repair`, { params: connection }),
  },
  [`PUT ${S}/writes`]: {
    crossShop: {
      expect: 404,
      invoke: route(`PUT ${S}/writes`, {
        params: connection,
        body: () => ({
          shopDomain: "b-shop.myshopify.com",
          adminToken: "shpat_theirs_0123456789",
          secret: "theirs-56789",
        }),
      }),
    },
    viewer: route(`PUT ${S}/writes`, {
      params: connection,
      body: () => ({
        shopDomain: "v-shop.myshopify.com",
        adminToken: "shpat_viewer_0123456789",
        secret: "viewer-56789",
      }),
    }),
  },

  // REST: alerts (admins change; every role reads)
  "GET /api/v1/alerts": { crossShop: { expect: "isolated", invoke: route("GET /api/v1/alerts") } },
  "POST /api/v1/alerts": {
    crossShop: {
      expect: "isolated",
      invoke: route("POST /api/v1/alerts", { body: () => ({ kind: "storm", channel: { type: "email" } }) }),
    },
    viewer: route("POST /api/v1/alerts", { body: () => ({ kind: "storm", channel: { type: "email" } }) }),
  },
  "GET /api/v1/alerts/history": {
    crossShop: { expect: "isolated", invoke: route("GET /api/v1/alerts/history") },
  },
  [`GET ${AL}`]: { crossShop: { expect: 404, invoke: route(`GET ${AL}`, { params: alert }) } },
  [`PUT ${AL}`]: {
    crossShop: {
      expect: 404,
      invoke: route(`PUT ${AL}`, { params: alert, body: () => ({ enabled: false }) }),
    },
    viewer: route(`PUT ${AL}`, { params: alert, body: () => ({ enabled: false }) }),
  },
  [`DELETE ${AL}`]: {
    crossShop: { expect: 404, invoke: route(`DELETE ${AL}`, { params: alert }) },
    viewer: route(`DELETE ${AL}`, { params: alert }),
  },
  [`POST ${AL}/test`]: {
    crossShop: { expect: 404, invoke: route(`POST ${AL}/test`, { params: alert }) },
    viewer: route(`POST ${AL}/test`, { params: alert }),
  },

  // REST: teams (admins change; every role reads)
  "GET /api/v1/teams": { crossShop: { expect: "isolated", invoke: route("GET /api/v1/teams") } },
  "POST /api/v1/teams": {
    crossShop: {
      expect: "isolated",
      invoke: route("POST /api/v1/teams", { body: () => ({ name: "B team" }) }),
    },
    viewer: route("POST /api/v1/teams", { body: () => ({ name: "Viewer team" }) }),
    editor: route("POST /api/v1/teams", { body: () => ({ name: "Editor team" }) }),
  },
  [`PUT ${T}`]: {
    crossShop: { expect: 404, invoke: route(`PUT ${T}`, { params: team, body: () => ({ name: "Taken" }) }) },
    viewer: route(`PUT ${T}`, { params: team, body: () => ({ name: "Taken" }) }),
    editor: route(`PUT ${T}`, { params: team, body: () => ({ name: "Taken" }) }),
  },
  [`DELETE ${T}`]: {
    crossShop: { expect: 404, invoke: route(`DELETE ${T}`, { params: team }) },
    viewer: route(`DELETE ${T}`, { params: team }),
    editor: route(`DELETE ${T}`, { params: team }),
  },

  // Server actions
  "lib/actions/teams/teams.ts#createTeamAction": {
    crossShop: {
      expect: "isolated",
      invoke: action("lib/actions/teams/teams.ts#createTeamAction", () => ({
        name: "B action team",
        members: [],
      })),
    },
    viewer: action("lib/actions/teams/teams.ts#createTeamAction", () => ({
      name: "Viewer team",
      members: [],
    })),
    editor: action("lib/actions/teams/teams.ts#createTeamAction", () => ({
      name: "Editor team",
      members: [],
    })),
  },
  "lib/actions/teams/teams.ts#updateTeamAction": {
    crossShop: {
      expect: 404,
      invoke: action("lib/actions/teams/teams.ts#updateTeamAction", () => ({
        id: ids.team,
        name: "Taken",
        members: [],
      })),
    },
    viewer: action("lib/actions/teams/teams.ts#updateTeamAction", () => ({
      id: ids.team,
      name: "Taken",
      members: [],
    })),
  },
  "lib/actions/teams/teams.ts#deleteTeamAction": {
    crossShop: {
      expect: 404,
      invoke: action("lib/actions/teams/teams.ts#deleteTeamAction", () => ({ id: ids.team })),
    },
    viewer: action("lib/actions/teams/teams.ts#deleteTeamAction", () => ({ id: ids.team })),
  },
  "lib/actions/alerts/create-alert.ts#createAlertAction": {
    crossShop: {
      expect: "isolated",
      invoke: action("lib/actions/alerts/create-alert.ts#createAlertAction", () => ({
        kind: "silence",
        channel: { type: "email" },
      })),
    },
    viewer: action("lib/actions/alerts/create-alert.ts#createAlertAction", () => ({
      kind: "silence",
      channel: { type: "email" },
    })),
  },
  "lib/actions/alerts/update-alert.ts#updateAlertAction": {
    crossShop: {
      expect: 404,
      invoke: action("lib/actions/alerts/update-alert.ts#updateAlertAction", () => ({
        id: ids.alert,
        changes: { enabled: false },
      })),
    },
    viewer: action("lib/actions/alerts/update-alert.ts#updateAlertAction", () => ({
      id: ids.alert,
      changes: { enabled: false },
    })),
  },
  "lib/actions/customers/resubscribe.ts#resubscribeAction": {
    crossShop: {
      expect: 404,
      invoke: action("lib/actions/customers/resubscribe.ts#resubscribeAction", () => ({
        customerId: ids.customer,
        reason: "Asked at the counter",
      })),
    },
    viewer: action("lib/actions/customers/resubscribe.ts#resubscribeAction", () => ({
      customerId: ids.customer,
      reason: "Asked at the counter",
    })),
  },
  "lib/actions/alerts/delete-alert.ts#deleteAlertAction": {
    crossShop: {
      expect: 404,
      invoke: action("lib/actions/alerts/delete-alert.ts#deleteAlertAction", () => ({ id: ids.alert })),
    },
    viewer: action("lib/actions/alerts/delete-alert.ts#deleteAlertAction", () => ({ id: ids.alert })),
  },
  "lib/actions/alerts/send-test-alert.ts#sendTestAlertAction": {
    crossShop: {
      expect: 404,
      invoke: action("lib/actions/alerts/send-test-alert.ts#sendTestAlertAction", () => ({ id: ids.alert })),
    },
    viewer: action("lib/actions/alerts/send-test-alert.ts#sendTestAlertAction", () => ({ id: ids.alert })),
  },
  "lib/actions/credentials/create-credential.ts#createCredentialAction": {
    crossShop: {
      expect: "isolated",
      invoke: action("lib/actions/credentials/create-credential.ts#createCredentialAction", () => ({
        name: "B's",
        kind: "bearer",
        value: "theirs-1111",
        allowedHosts: ["b.test"],
      })),
    },
    viewer: action("lib/actions/credentials/create-credential.ts#createCredentialAction", () => ({
      name: "V",
      kind: "bearer",
      value: "viewer-1111",
      allowedHosts: ["v.test"],
    })),
    editor: action("lib/actions/credentials/create-credential.ts#createCredentialAction", () => ({
      name: "E",
      kind: "bearer",
      value: "editor-1111",
      allowedHosts: ["e.test"],
    })),
  },
  "lib/actions/credentials/rotate-credential.ts#rotateCredentialAction": {
    crossShop: {
      expect: 404,
      invoke: action("lib/actions/credentials/rotate-credential.ts#rotateCredentialAction", () => ({
        id: ids.credential,
        value: "stolen-2222",
      })),
    },
    viewer: action("lib/actions/credentials/rotate-credential.ts#rotateCredentialAction", () => ({
      id: ids.credential,
      value: "viewer-2222",
    })),
    editor: action("lib/actions/credentials/rotate-credential.ts#rotateCredentialAction", () => ({
      id: ids.credential,
      value: "editor-2222",
      confirm: true,
    })),
  },
  "lib/actions/credentials/update-credential-hosts.ts#updateCredentialHostsAction": {
    crossShop: {
      expect: 404,
      invoke: action(
        "lib/actions/credentials/update-credential-hosts.ts#updateCredentialHostsAction",
        () => ({
          id: ids.credential,
          allowedHosts: ["b.test"],
        }),
      ),
    },
    viewer: action("lib/actions/credentials/update-credential-hosts.ts#updateCredentialHostsAction", () => ({
      id: ids.credential,
      allowedHosts: ["v.test"],
    })),
    editor: action("lib/actions/credentials/update-credential-hosts.ts#updateCredentialHostsAction", () => ({
      id: ids.credential,
      allowedHosts: ["e.test"],
    })),
  },
  "lib/actions/credentials/delete-credential.ts#deleteCredentialAction": {
    crossShop: {
      expect: 404,
      invoke: action("lib/actions/credentials/delete-credential.ts#deleteCredentialAction", () => ({
        id: ids.credential,
      })),
    },
    viewer: action("lib/actions/credentials/delete-credential.ts#deleteCredentialAction", () => ({
      id: ids.credential,
      confirm: true,
    })),
    editor: action("lib/actions/credentials/delete-credential.ts#deleteCredentialAction", () => ({
      id: ids.credential,
      confirm: true,
    })),
  },
  "lib/actions/connections/create-connection.ts#createConnectionAction": {
    crossShop: {
      expect: "isolated",
      invoke: action("lib/actions/connections/create-connection.ts#createConnectionAction", () => ({
        platform: "woocommerce",
        name: "B's store",
        secret: "theirs-3333",
      })),
    },
    viewer: action("lib/actions/connections/create-connection.ts#createConnectionAction", () => ({
      platform: "woocommerce",
      name: "V's store",
      secret: "viewer-3333",
    })),
  },
  "lib/actions/connections/delete-connection.ts#deleteConnectionAction": {
    crossShop: {
      expect: 404,
      invoke: action("lib/actions/connections/delete-connection.ts#deleteConnectionAction", connection),
    },
    viewer: action("lib/actions/connections/delete-connection.ts#deleteConnectionAction", connection),
  },
  "lib/actions/connections/repair-webhooks.ts#repairWebhooksAction": {
    crossShop: {
      expect: 404,
      invoke: action("lib/actions/connections/repair-webhooks.ts#repairWebhooksAction", connection),
    },
    viewer: action("lib/actions/connections/repair-webhooks.ts#repairWebhooksAction", connection),
  },
  "lib/actions/connections/set-writes.ts#setConnectionWritesAction": {
    crossShop: {
      expect: 404,
      invoke: action("lib/actions/connections/set-writes.ts#setConnectionWritesAction", () => ({
        id: ids.connection,
        writes: {
          shopDomain: "b-shop.myshopify.com",
          adminToken: "shpat_theirs_0123456789",
          secret: "theirs-56789",
        },
      })),
    },
    viewer: action("lib/actions/connections/set-writes.ts#setConnectionWritesAction", () => ({
      id: ids.connection,
      writes: {
        shopDomain: "v-shop.myshopify.com",
        adminToken: "shpat_viewer_0123456789",
        secret: "viewer-56789",
      },
    })),
  },
  "lib/actions/connections/send-test-delivery.ts#sendTestDeliveryAction": {
    crossShop: {
      expect: 404,
      invoke: action("lib/actions/connections/send-test-delivery.ts#sendTestDeliveryAction", connection),
    },
    viewer: action("lib/actions/connections/send-test-delivery.ts#sendTestDeliveryAction", connection),
  },
  "lib/actions/api-keys/create-api-key.ts#createApiKeyAction": {
    crossShop: {
      expect: "isolated",
      invoke: action("lib/actions/api-keys/create-api-key.ts#createApiKeyAction", () => ({
        name: "B",
        role: "viewer",
      })),
    },
    viewer: action("lib/actions/api-keys/create-api-key.ts#createApiKeyAction", () => ({
      name: "V",
      role: "admin",
    })),
  },
  "lib/actions/api-keys/revoke-api-key.ts#revokeApiKeyAction": {
    crossShop: {
      expect: 404,
      invoke: action("lib/actions/api-keys/revoke-api-key.ts#revokeApiKeyAction", () => ({ id: ids.apiKey })),
    },
    viewer: action("lib/actions/api-keys/revoke-api-key.ts#revokeApiKeyAction", () => ({ id: ids.apiKey })),
  },
  "lib/actions/approvals/decide-approval.ts#decideApprovalAction": {
    crossShop: {
      expect: 404,
      invoke: action("lib/actions/approvals/decide-approval.ts#decideApprovalAction", () => ({
        waitId: ids.approval,
        decision: "approved",
      })),
    },
    viewer: action("lib/actions/approvals/decide-approval.ts#decideApprovalAction", () => ({
      waitId: ids.approval,
      decision: "rejected",
    })),
  },
  ...automationActions(),
  "lib/actions/automations/count-audience.ts#countAudienceAction": {
    readOnly: true,
    crossShop: {
      expect: "isolated",
      invoke: action("lib/actions/automations/count-audience.ts#countAudienceAction", () => ({
        audience: {},
      })),
    },
  },
  "lib/actions/automations/create-from-template.ts#createFromTemplateAction": {
    crossShop: {
      expect: "isolated",
      invoke: action("lib/actions/automations/create-from-template.ts#createFromTemplateAction", () => ({
        templateId: "blank",
      })),
    },
    viewer: action("lib/actions/automations/create-from-template.ts#createFromTemplateAction", () => ({
      templateId: "blank",
    })),
  },
  // Runs merchant code on a record and takes none of its actions; editors only, as it runs code.
  "lib/actions/automations/preview-code.ts#previewCodeAction": {
    crossShop: {
      expect: 404,
      invoke: action("lib/actions/automations/preview-code.ts#previewCodeAction", () => ({
        source: 'actions.tag("x"); return entity;',
        domain: "order",
        entityId: ids.entity,
        triggerType: "auto.trigger.order_paid",
      })),
    },
    viewer: action("lib/actions/automations/preview-code.ts#previewCodeAction", () => ({
      source: 'actions.tag("x"); return entity;',
      domain: "order",
      entityId: ids.entity,
      triggerType: "auto.trigger.order_paid",
    })),
  },
  "lib/actions/automations/build-with-ai.ts#buildWithAiAction": {
    // Creates a draft in the caller's own shop, as creating one from a template does.
    crossShop: {
      expect: "isolated",
      invoke: action("lib/actions/automations/build-with-ai.ts#buildWithAiAction", () => ({
        prompt: "Tag paid orders",
      })),
    },
    viewer: action("lib/actions/automations/build-with-ai.ts#buildWithAiAction", () => ({
      prompt: "Tag paid orders",
    })),
  },
  "lib/actions/entities/search-entities.ts#searchEntitiesAction": {
    readOnly: true,
    crossShop: {
      expect: "isolated",
      invoke: action("lib/actions/entities/search-entities.ts#searchEntitiesAction", () => ({
        domain: "order",
        query: "a-only",
      })),
    },
  },
  "lib/actions/entities/list-attribute-paths.ts#listAttributePathsAction": {
    readOnly: true,
    crossShop: {
      expect: "isolated",
      invoke: action("lib/actions/entities/list-attribute-paths.ts#listAttributePathsAction", () => ({
        domain: "order",
      })),
    },
  },
  "lib/actions/orders/change-order-status.ts#changeOrderStatusAction": {
    crossShop: {
      expect: 404,
      invoke: action("lib/actions/orders/change-order-status.ts#changeOrderStatusAction", () => ({
        id: ids.entity,
        status: "cancelled",
      })),
    },
    viewer: action("lib/actions/orders/change-order-status.ts#changeOrderStatusAction", () => ({
      id: ids.entity,
      status: "cancelled",
    })),
  },
  "lib/actions/orders/change-order-email.ts#changeOrderEmailAction": {
    crossShop: {
      expect: 404,
      invoke: action("lib/actions/orders/change-order-email.ts#changeOrderEmailAction", () => ({
        id: ids.entity,
        email: "taken@example.com",
      })),
    },
    viewer: action("lib/actions/orders/change-order-email.ts#changeOrderEmailAction", () => ({
      id: ids.entity,
      email: "taken@example.com",
    })),
  },
  "lib/actions/settings/update-shop.ts#updateShopAction": {
    crossShop: {
      expect: "isolated",
      invoke: action("lib/actions/settings/update-shop.ts#updateShopAction", () => ({
        name: "B",
        timezone: "UTC",
      })),
    },
    viewer: action("lib/actions/settings/update-shop.ts#updateShopAction", () => ({
      name: "V",
      timezone: "UTC",
    })),
  },
  "lib/actions/settings/set-attribution.ts#setAttributionAction": {
    crossShop: {
      expect: "isolated",
      invoke: action("lib/actions/settings/set-attribution.ts#setAttributionAction", () => ({
        windowDays: 7,
      })),
    },
    viewer: action("lib/actions/settings/set-attribution.ts#setAttributionAction", () => ({ windowDays: 7 })),
    editor: action("lib/actions/settings/set-attribution.ts#setAttributionAction", () => ({ windowDays: 7 })),
  },
  "lib/actions/settings/update-messaging.ts#updateMessagingAction": {
    crossShop: {
      expect: "isolated",
      invoke: action("lib/actions/settings/update-messaging.ts#updateMessagingAction", () => ({
        quietHours: null,
      })),
    },
    viewer: action("lib/actions/settings/update-messaging.ts#updateMessagingAction", () => ({
      quietHours: null,
    })),
    editor: action("lib/actions/settings/update-messaging.ts#updateMessagingAction", () => ({
      quietHours: null,
    })),
  },
  "lib/actions/settings/show-signing-secret.ts#showSigningSecretAction": {
    // The caller's own shop's secret: the other shop's admin gets theirs, never this shop's.
    crossShop: {
      expect: "isolated",
      invoke: action("lib/actions/settings/show-signing-secret.ts#showSigningSecretAction", () => ({})),
    },
    viewer: action("lib/actions/settings/show-signing-secret.ts#showSigningSecretAction", () => ({})),
  },
  "lib/actions/settings/rotate-signing-secret.ts#rotateSigningSecretAction": {
    crossShop: {
      expect: "isolated",
      invoke: action("lib/actions/settings/rotate-signing-secret.ts#rotateSigningSecretAction", () => ({})),
    },
    viewer: action("lib/actions/settings/rotate-signing-secret.ts#rotateSigningSecretAction", () => ({})),
  },
  "lib/actions/tasks/complete-task.ts#completeTaskAction": {
    crossShop: {
      expect: 404,
      invoke: action("lib/actions/tasks/complete-task.ts#completeTaskAction", () => ({ taskId: ids.task })),
    },
    viewer: action("lib/actions/tasks/complete-task.ts#completeTaskAction", () => ({ taskId: ids.task })),
  },
  "lib/actions/users/invite-user.ts#inviteUserAction": {
    crossShop: {
      expect: "isolated",
      invoke: action("lib/actions/users/invite-user.ts#inviteUserAction", () => ({
        email: "invited@guards.test",
        role: "admin",
      })),
    },
    viewer: action("lib/actions/users/invite-user.ts#inviteUserAction", () => ({
      email: "v@guards.test",
      role: "admin",
    })),
  },
  "lib/actions/users/revoke-invitation.ts#revokeInvitationAction": {
    crossShop: {
      expect: 404,
      invoke: action("lib/actions/users/revoke-invitation.ts#revokeInvitationAction", () => ({
        id: ids.invitation,
      })),
    },
    viewer: action("lib/actions/users/revoke-invitation.ts#revokeInvitationAction", () => ({
      id: ids.invitation,
    })),
  },
  "lib/actions/users/resend-invitation.ts#resendInvitationAction": {
    crossShop: {
      expect: 404,
      invoke: action("lib/actions/users/resend-invitation.ts#resendInvitationAction", () => ({
        id: ids.invitation,
      })),
    },
    viewer: action("lib/actions/users/resend-invitation.ts#resendInvitationAction", () => ({
      id: ids.invitation,
    })),
  },
  "lib/actions/users/change-user-role.ts#changeUserRoleAction": {
    crossShop: {
      expect: 404,
      invoke: action("lib/actions/users/change-user-role.ts#changeUserRoleAction", () => ({
        userId: ids.user,
        role: "admin",
      })),
    },
    viewer: action("lib/actions/users/change-user-role.ts#changeUserRoleAction", () => ({
      userId: ids.user,
      role: "admin",
    })),
  },
  "lib/actions/users/remove-user.ts#removeUserAction": {
    crossShop: {
      expect: 404,
      invoke: action("lib/actions/users/remove-user.ts#removeUserAction", () => ({ userId: ids.user })),
    },
    viewer: action("lib/actions/users/remove-user.ts#removeUserAction", () => ({ userId: ids.user })),
  },
  "lib/actions/automations/set-caps.ts#setCapsAction": {
    crossShop: {
      expect: 404,
      invoke: action("lib/actions/automations/set-caps.ts#setCapsAction", () => ({
        id: ids.automation,
        maxRunsPerHour: 5,
      })),
    },
    viewer: action("lib/actions/automations/set-caps.ts#setCapsAction", () => ({
      id: ids.automation,
      maxRunsPerHour: 5,
    })),
  },
  "lib/actions/runs/held.ts#settleHeldRunAction": {
    crossShop: {
      expect: 404,
      invoke: action("lib/actions/runs/held.ts#settleHeldRunAction", () => ({
        runId: ids.run,
        verb: "release",
      })),
    },
    viewer: action("lib/actions/runs/held.ts#settleHeldRunAction", () => ({
      runId: ids.run,
      verb: "discard",
    })),
  },
  "lib/actions/runs/held.ts#settleHeldRunsAction": {
    crossShop: {
      expect: 404,
      invoke: action("lib/actions/runs/held.ts#settleHeldRunsAction", () => ({
        automationId: ids.automation,
        verb: "release",
      })),
    },
    viewer: action("lib/actions/runs/held.ts#settleHeldRunsAction", () => ({
      automationId: ids.automation,
      verb: "discard",
    })),
  },
  "lib/actions/waits/cancel-all-waits.ts#cancelAllWaitsAction": {
    crossShop: {
      expect: 404,
      invoke: action("lib/actions/waits/cancel-all-waits.ts#cancelAllWaitsAction", () => ({
        automationId: ids.automation,
      })),
    },
    viewer: action("lib/actions/waits/cancel-all-waits.ts#cancelAllWaitsAction", () => ({
      automationId: null,
    })),
  },
  "lib/actions/waits/cancel-wait.ts#cancelWaitAction": {
    crossShop: {
      expect: 404,
      invoke: action("lib/actions/waits/cancel-wait.ts#cancelWaitAction", () => ({ waitId: ids.wait })),
    },
    viewer: action("lib/actions/waits/cancel-wait.ts#cancelWaitAction", () => ({ waitId: ids.wait })),
  },
  "lib/actions/runs/rerun.ts#rerunImpactAction": {
    readOnly: true,
    crossShop: {
      expect: 404,
      invoke: action("lib/actions/runs/rerun.ts#rerunImpactAction", () => ({ runId: ids.run })),
    },
  },
  "lib/actions/runs/rerun.ts#rerunRunAction": {
    crossShop: {
      expect: 404,
      invoke: action("lib/actions/runs/rerun.ts#rerunRunAction", () => ({ runId: ids.run })),
    },
    viewer: action("lib/actions/runs/rerun.ts#rerunRunAction", () => ({ runId: ids.run })),
  },
  "lib/actions/runs/rerun.ts#bulkRerunImpactAction": {
    readOnly: true,
    crossShop: {
      expect: "isolated",
      invoke: action("lib/actions/runs/rerun.ts#bulkRerunImpactAction", () => ({ ids: [ids.run] })),
    },
  },
  "lib/actions/runs/rerun.ts#rerunRunsAction": {
    crossShop: {
      expect: "isolated",
      invoke: action("lib/actions/runs/rerun.ts#rerunRunsAction", () => ({ ids: [ids.run] })),
    },
    viewer: action("lib/actions/runs/rerun.ts#rerunRunsAction", () => ({ ids: [ids.run] })),
  },
  "lib/actions/automations/try-ai.ts#tryAiAction": {
    crossShop: {
      expect: 404,
      invoke: action("lib/actions/automations/try-ai.ts#tryAiAction", () => ({
        params: { task: "classify", prompt: "Sort {entity.number}", categories: ["a", "b"] },
        domain: "order",
        entityId: ids.entity,
      })),
    },
    viewer: action("lib/actions/automations/try-ai.ts#tryAiAction", () => ({
      params: { task: "classify", prompt: "Sort {entity.number}", categories: ["a", "b"] },
      domain: "order",
      entityId: ids.entity,
    })),
  },
  "lib/actions/waits/resume-wait-now.ts#resumeWaitNowAction": {
    crossShop: {
      expect: 404,
      invoke: action("lib/actions/waits/resume-wait-now.ts#resumeWaitNowAction", () => ({
        waitId: ids.wait,
      })),
    },
    viewer: action("lib/actions/waits/resume-wait-now.ts#resumeWaitNowAction", () => ({ waitId: ids.wait })),
  },
};

/** The automation actions that take an automation id: 404 for another shop, 403 for a viewer. */
function automationActions(): Record<string, Entry> {
  const byId: [file: string, name: string, input: () => Record<string, unknown>, readOnly?: true][] = [
    ["archive-automation", "archiveAutomationAction", () => ({ id: ids.automation })],
    ["backtest", "backtestAction", () => ({ automationId: ids.automation })],
    ["dry-run", "dryRunAction", () => ({ automationId: ids.automation }), true],
    ["get-impact", "getImpactAction", () => ({ id: ids.automation, action: "pause" }), true],
    ["list-schedule-fires", "listScheduleFiresAction", () => ({ id: ids.automation }), true],
    ["list-versions", "listVersionsAction", () => ({ id: ids.automation }), true],
    ["publish-automation", "publishAutomationAction", () => ({ id: ids.automation })],
    ["reset-automation-to-builtin", "resetAutomationToBuiltinAction", () => ({ id: ids.builtin })],
    ["restore-automation", "restoreAutomationAction", () => ({ id: ids.automation })],
    ["revert-version", "revertVersionAction", () => ({ id: ids.automation, version: 1 })],
    ["run-automation-now", "runAutomationNowAction", () => ({ id: ids.builtin })],
    ["save-draft", "saveDraftAction", () => ({ id: ids.automation, name: "x", baseRevision: 1 })],
    [
      "send-down-branch",
      "sendDownBranchAction",
      () => ({ id: ids.automation, splitId: "split", branch: "a" }),
    ],
    ["set-automation-active", "setAutomationActiveAction", () => ({ id: ids.automation, active: false })],
    ["set-holdout", "setHoldoutAction", () => ({ id: ids.automation, percent: 10 })],
    [
      "set-messaging",
      "setMessagingAction",
      () => ({ id: ids.automation, priority: "high", expireAfterHours: 24 }),
    ],
    ["try-later", "tryLaterAction", () => ({ id: ids.automation, step: "check-in", then: {} })],
  ];
  return Object.fromEntries(
    byId.map(([file, name, input, readOnly]) => {
      const key = `lib/actions/automations/${file}.ts#${name}`;
      const entry: Entry = readOnly
        ? { readOnly, crossShop: { expect: 404, invoke: action(key, input) } }
        : { crossShop: { expect: 404, invoke: action(key, input) }, viewer: action(key, input) };
      return [key, entry];
    }),
  );
}

/** Server actions that need no entry: they act before anyone is signed in, or on the session itself. */
const EXEMPT_ACTIONS: Record<string, string> = {
  "lib/actions/auth/sign-in.ts#signIn": "signs in: there is no caller, shop or role yet",
  "lib/actions/auth/sign-out.ts#signOut": "ends the caller's own session; it touches no shop's data",
  // The invitation's token is the authority: checked, closed and turned into a membership in one
  // transaction; tests/auth/invitations.test.ts proves who can and cannot accept.
  "lib/actions/auth/accept-invitation.ts#acceptInvitationAsNewLogin":
    "accepts an invitation by its token: there is no membership yet",
  "lib/actions/auth/accept-invitation.ts#acceptInvitationWithPassword":
    "signs in as the invited email and accepts by the token: there is no membership yet",
  "lib/actions/auth/accept-invitation.ts#acceptInvitationSignedIn":
    "accepts by the token as the signed-in invited email: there is no membership yet",
  "lib/actions/auth/request-password-reset.ts#requestPasswordReset":
    "emails a reset link to the address asked for: nobody is signed in",
  "lib/actions/auth/reset-password.ts#resetPassword":
    "sets a password by its reset token: nobody is signed in",
};

// ── Discovery ────────────────────────────────────────────────────────────────────────────────

function filesUnder(dir: string, match: (name: string) => boolean): string[] {
  return fs
    .readdirSync(path.join(ROOT, dir), { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile() && match(d.name))
    .map((d) => path.relative(ROOT, path.join(d.parentPath, d.name)).split(path.sep).join("/"))
    .sort();
}

async function discover(): Promise<string[]> {
  const found: string[] = [];
  for (const file of filesUnder("app/api/v1", (n) => n === "route.ts")) {
    const mod = (await import(pathToFileURL(path.join(ROOT, file)).href)) as Record<string, unknown>;
    const pattern = `/${file.slice("app/".length, -"/route.ts".length)}`;
    for (const method of METHODS) {
      if (typeof mod[method] !== "function") continue;
      routes.set(`${method} ${pattern}`, mod[method] as Handler);
      found.push(`${method} ${pattern}`);
    }
  }
  for (const file of filesUnder("lib/actions", (n) => n.endsWith(".ts") && !n.endsWith(".test.ts"))) {
    if (file === "lib/actions/action.ts") continue;
    const mod = (await import(pathToFileURL(path.join(ROOT, file)).href)) as Record<string, unknown>;
    for (const [name, value] of Object.entries(mod)) {
      if (typeof value !== "function") continue;
      actions.set(`${file}#${name}`, value as ActionFn);
      found.push(`${file}#${name}`);
    }
  }
  return found;
}

/** Every row of this shop the cases could touch, cheaply. */
async function fingerprint(tenantId: string): Promise<string> {
  const rows = await getDb().execute(
    // The same tables the bad-input properties watch, plus staff, keys, tasks and waits.
    sql`
    select
      (select count(*) from automations where tenant_id = ${tenantId}) as automations,
      (select max(updated_at) from automations where tenant_id = ${tenantId}) as automations_at,
      (select count(*) from automation_versions where tenant_id = ${tenantId}) as versions,
      (select count(*) from events where tenant_id = ${tenantId}) as events,
      (select max(updated_at) from entities where tenant_id = ${tenantId}) as entities_at,
      (select count(*) from automation_runs where tenant_id = ${tenantId}) as runs,
      (select count(*) from automation_run_waits where tenant_id = ${tenantId} and status = 'pending') as waits,
      (select count(*) from staff_tasks where tenant_id = ${tenantId} and status = 'open') as tasks,
      (select count(*) from memberships where tenant_id = ${tenantId}) as members,
      (select string_agg(email || role::text || token_hash || coalesce(revoked_at::text, ''), ',' order by id) from invitations where tenant_id = ${tenantId}) as invitations,
      (select count(*) from api_keys where tenant_id = ${tenantId} and revoked_at is null) as keys,
      (select name from tenants where id = ${tenantId}) as shop_name,
      (select signing_secret from tenants where id = ${tenantId}) as signing_secret,
      (select string_agg(value || last4 || name || allowed_hosts::text, ',' order by id) from credentials where tenant_id = ${tenantId}) as credentials,
      (select string_agg(name || token, ',' order by id) from store_connections where tenant_id = ${tenantId}) as connections,
      (select count(*) from connection_deliveries where tenant_id = ${tenantId}) as deliveries,
      (select string_agg(kind || enabled || channel::text || updated_at, ',' order by id) from alert_rules where tenant_id = ${tenantId}) as alerts,
      (select count(*) from alert_history where tenant_id = ${tenantId}) as alerts_sent,
      (select string_agg(t.name || coalesce(m.user_id, ''), ',' order by t.id, m.user_id) from teams t left join team_members m on m.team_id = t.id where t.tenant_id = ${tenantId}) as teams`,
  );
  return JSON.stringify(rows[0], (_, v: unknown) => (typeof v === "bigint" ? String(v) : v));
}

// ── Tests ────────────────────────────────────────────────────────────────────────────────────

describe("every route and server action is guarded", () => {
  test("each has a cross-shop case, and a viewer case when it changes anything", async () => {
    const found = await discover();
    expect(found.length).toBeGreaterThan(40);
    const missing = found.filter((key) => !REGISTRY[key] && !EXEMPT_ACTIONS[key]);
    expect(missing, "Add these to REGISTRY in tests/api/route-guards.test.ts").toEqual([]);
    const stale = Object.keys(REGISTRY).filter((key) => !found.includes(key));
    expect(stale, "These entries name no route or action any more").toEqual([]);
    const noViewerCase = Object.entries(REGISTRY)
      .filter(([key, entry]) => !key.startsWith("GET ") && !entry.readOnly && !entry.viewer)
      .map(([key]) => key);
    expect(noViewerCase, "Mutating routes and actions need a viewer (403) case").toEqual([]);
  });

  test("another shop gets 404 for this shop's records, and never sees or changes them", async () => {
    if (routes.size === 0) await discover();
    const entries = Object.entries(REGISTRY);
    const failures: string[] = [];
    // 404s first, then the isolated cases, and last those that create the other shop's own record
    // of the same id (an upsert, an event), so no earlier case finds that record instead.
    const order = (e: Entry) =>
      e.crossShop.expect === 404 ? 0 : e.crossShop.expect === "isolated" && e.crossShop.echoes ? 2 : 1;
    for (const [key, entry] of entries.sort(([, x], [, y]) => order(x) - order(y))) {
      const before = await fingerprint(a.tenant.id);
      const reply = await entry.crossShop.invoke(b.keys.admin);
      const text = JSON.stringify(reply.body);
      if (entry.crossShop.expect === 404 && reply.status !== 404)
        failures.push(`${key}: expected 404, got ${reply.status} ${text.slice(0, 200)}`);
      if (entry.crossShop.expect === "isolated") {
        // An upsert or an event echoes the id it was given: that is the other shop's own record.
        const echoes = entry.crossShop.echoes === true;
        if (reply.status >= 500) failures.push(`${key}: ${reply.status} ${text.slice(0, 200)}`);
        const seen = Object.entries(ids).filter(
          ([name, value]) => value && text.includes(value) && !(name === "entity" && echoes),
        );
        if (seen.length > 0) failures.push(`${key}: shows this shop's ${seen.map(([n]) => n).join(", ")}`);
      }
      if ((await fingerprint(a.tenant.id)) !== before) failures.push(`${key}: changed this shop's data`);
    }
    expect(failures).toEqual([]);
  });

  test("a viewer gets 403 for every change, and changes nothing", async () => {
    if (routes.size === 0) await discover();
    const failures: string[] = [];
    for (const [key, entry] of Object.entries(REGISTRY)) {
      if (!entry.viewer) continue;
      const before = await fingerprint(a.tenant.id);
      const reply = await entry.viewer(a.keys.viewer);
      if (reply.status !== 403)
        failures.push(
          `${key}: expected 403, got ${reply.status} ${JSON.stringify(reply.body).slice(0, 200)}`,
        );
      if ((await fingerprint(a.tenant.id)) !== before) failures.push(`${key}: a viewer changed data`);
    }
    expect(failures).toEqual([]);
  });

  test("an editor gets 403 for what only admins may do, and changes nothing", async () => {
    if (routes.size === 0) await discover();
    const failures: string[] = [];
    const cases = Object.entries(REGISTRY).filter(([, entry]) => entry.editor);
    expect(cases.length).toBeGreaterThan(0);
    for (const [key, entry] of cases) {
      const before = await fingerprint(a.tenant.id);
      const reply = await entry.editor!(a.keys.editor);
      if (reply.status !== 403)
        failures.push(
          `${key}: expected 403, got ${reply.status} ${JSON.stringify(reply.body).slice(0, 200)}`,
        );
      if ((await fingerprint(a.tenant.id)) !== before) failures.push(`${key}: an editor changed data`);
    }
    expect(failures).toEqual([]);
  });
});
