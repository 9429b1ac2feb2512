import { sql } from "drizzle-orm";
import fc from "fast-check";
import { beforeAll, describe, expect, test } from "vitest";
import { PUT as draftRoute } from "@/app/api/v1/automations/[id]/draft/route";
import { POST as publishRoute } from "@/app/api/v1/automations/[id]/publish/route";
import { POST as createRoute } from "@/app/api/v1/automations/route";
import { PATCH as patchEntityRoute, PUT as putEntityRoute } from "@/app/api/v1/entities/[domain]/[id]/route";
import { POST as eventsRoute } from "@/app/api/v1/events/route";
import { GET as runsRoute } from "@/app/api/v1/runs/route";
import { POST as previewRoute } from "@/app/api/v1/schedules/preview/route";
import { registry } from "@/lib/automations/nodes/registry";
import { getDb } from "@/lib/db/client";
import { DOMAINS } from "@/lib/domains/domains";
import { call, type ErrorReply } from "@/tests/helpers/fixtures";
import { createShop, type TestShop } from "@/tests/helpers/shop";

/*
 * Bad input, systematically: random requests through the real route handlers. Whatever arrives,
 * the answer is never a 5xx; a refusal is a 4xx with `{ error: { code, message } }`; a refusal
 * changes nothing in the database; and where one field of an otherwise good request is wrong, the
 * refusal names that field. The run counts below add up to 10,000 cases (measured 23–47 s on 2 shared cores).
 */
const RUNS = {
  createGraph: 1500,
  draftAndPublish: 1400,
  tokens: 250,
  cronPreview: 800,
  cronInGraph: 200,
  eventSingle: 1500,
  eventArray: 700,
  eventOneFieldWrong: 400,
  entityPut: 1500,
  entityPatch: 1250,
  entityOneFieldWrong: 500,
} as const;

/** `BAD_INPUT_SCALE=0.1` runs a tenth of the cases (for a quick look); the default runs them all. */
const SCALE = Number(process.env.BAD_INPUT_SCALE ?? 1);
const runs = (n: number) => Math.max(1, Math.round(n * SCALE));

let shop: TestShop;
let automationId: string;

beforeAll(async () => {
  shop = await createShop();
  const created = await call<{ id: string }>(createRoute, {
    method: "POST",
    key: shop.keys.editor,
    body: { name: "Target", graph: { nodes: [], edges: [] } },
  });
  automationId = created.body.id;
  // A paid order the PATCH cases change (or, refused, must leave alone).
  await call(putEntityRoute, {
    method: "PUT",
    key: shop.keys.editor,
    params: { domain: "order", id: "o-1" },
    body: { number: "#1", status: "pending", total: 10, currency: "EUR" },
  });
});

/** Everything a refused request could have touched, cheaply: counts, revisions and last changes. */
async function fingerprint(): Promise<string> {
  const t = shop.tenant.id;
  const rows = await getDb().execute(sql`
    select
      (select count(*) from automations where tenant_id = ${t}) as automations,
      (select coalesce(sum(draft_revision), 0) from automations where tenant_id = ${t}) as revisions,
      (select max(updated_at) from automations where tenant_id = ${t}) as automations_at,
      (select count(*) from automation_versions where tenant_id = ${t}) as versions,
      (select count(*) from events where tenant_id = ${t}) as events,
      (select count(*) from entities where tenant_id = ${t}) as entities,
      (select max(updated_at) from entities where tenant_id = ${t}) as entities_at,
      (select count(*) from entity_notes where tenant_id = ${t}) as notes,
      (select count(*) from automation_runs where tenant_id = ${t}) as runs,
      (select count(*) from audit_events where tenant_id = ${t}) as audit`);
  return JSON.stringify(rows[0], (_, v: unknown) => (typeof v === "bigint" ? String(v) : v));
}

interface Reply {
  status: number;
  body: unknown;
}

/** The reply is sound: no 5xx; a refusal is a 4xx with a JSON error (naming `field` if given). */
function assertSound(reply: Reply, field?: string): void {
  const shown = JSON.stringify(reply.body);
  expect(reply.status, shown).toBeLessThan(500);
  if (reply.status < 400) return;
  const error = (reply.body as ErrorReply).error;
  expect(typeof error?.code, shown).toBe("string");
  expect(typeof error?.message, shown).toBe("string");
  expect(error.message.length, shown).toBeGreaterThan(0);
  if (field) expect(`${error.message} ${JSON.stringify(error.issues ?? [])}`, shown).toContain(field);
}

/**
 * The database's fingerprint as of the last request. Nothing else writes to this shop (no worker
 * runs here), so it only changes when a request is accepted: one query per case, not two.
 */
let known: string | null = null;

/** Sends one request; when it is refused, the database must be as it was. */
async function sendChecked(send: () => Promise<Reply>, field?: string): Promise<Reply> {
  const before = known ?? (await fingerprint());
  const reply = await send();
  assertSound(reply, field);
  known = await fingerprint();
  if (reply.status >= 400) expect(known, JSON.stringify(reply.body)).toBe(before);
  return reply;
}

// ── Arbitraries ──────────────────────────────────────────────────────────────────────────────

/**
 * One character of a generated string: mostly printable ASCII, sometimes what breaks naive code —
 * NUL (which PostgreSQL refuses in text and jsonb), lone surrogates, a right-to-left override,
 * newlines, quotes, percent signs, accents and emoji.
 */
const unit = fc.oneof(
  { weight: 8, arbitrary: fc.string({ unit: "grapheme-ascii", minLength: 1, maxLength: 1 }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom("\u0000", "\ud800", "\udfff", "\u202e", "\n", "'", "%", "\\", "é", "😀"),
  },
);
const str = (maxLength: number) => fc.string({ unit, maxLength });
const json = fc.jsonValue({ maxDepth: 2, stringUnit: unit });
const nodeTypes = registry.all().map((d) => d.type);
const idish = fc.oneof(fc.constantFrom("t", "a", "b", "c", "w", "x"), str(12), json);
const PARAM_KEYS = [
  "tag",
  "body",
  "subject",
  "to",
  "title",
  "duration",
  "unit",
  "cron",
  "timezone",
  "field",
  "op",
  "operator",
  "value",
  "timeoutHours",
  "approverRole",
  "url",
  "method",
  "audience",
  "until",
  "at",
  "threshold",
  "status",
];
const params = fc.oneof(fc.dictionary(fc.constantFrom(...PARAM_KEYS), json, { maxKeys: 4 }), json);
const node = fc.record(
  {
    id: idish,
    type: fc.oneof(fc.constantFrom(...nodeTypes), str(20), json),
    params,
    position: fc.oneof(fc.record({ x: fc.double(), y: fc.double() }), json),
  },
  { requiredKeys: ["id", "type"] },
);
const edge = fc.record(
  {
    id: idish,
    source: idish,
    target: idish,
    sourceHandle: fc.oneof(fc.constantFrom("out", "true", "false", "approved"), json),
  },
  { requiredKeys: ["id", "source", "target"] },
);
const graph = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      nodes: fc.array(node, { maxLength: 6 }),
      edges: fc.array(edge, { maxLength: 6 }),
    }),
  },
  { weight: 1, arbitrary: json },
);

/** Strings made of token syntax: braces, paths, pipes and filters, with noise between. */
const template = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        "{",
        "}",
        "{{",
        "}}",
        "entity.",
        "event.",
        "run.",
        "customer.",
        "|",
        " money",
        " date:",
        "upcase",
        "default:",
        "number",
        "total",
        "email",
        "name",
        ":",
        "'",
        '"',
        "\\",
        "  ",
      ),
      str(6),
    ),
    { maxLength: 12 },
  )
  .map((parts) => parts.join(""));

const cronField = fc.oneof(
  fc.constantFrom(
    "*",
    "*/5",
    "0",
    "59",
    "60",
    "-1",
    "1-5",
    "5-1",
    "MON",
    "JAN",
    "L",
    "W",
    "#",
    "?",
    ",",
    "1,2",
    "99999999999",
  ),
  str(4),
);
const cron = fc.oneof(
  fc.array(cronField, { minLength: 0, maxLength: 7 }).map((f) => f.join(" ")),
  str(30),
  json,
);
const timezone = fc.oneof(
  fc.constantFrom("UTC", "Europe/Berlin", "America/New_York", "Mars/Olympus", "", "+02:00", "Etc/GMT+14"),
  str(20),
  json,
);

const EVENT_TYPES = ["order.paid", "order.created", "cart.abandoned", "customer.created", "nope", "order."];
const event = fc.record(
  {
    id: fc.oneof(str(40), json),
    type: fc.oneof(fc.constantFrom(...EVENT_TYPES), str(20), json),
    domain: fc.oneof(fc.constantFrom(...DOMAINS, "webhook", "schedule"), str(10), json),
    entityId: fc.oneof(str(20), json),
    payload: json,
    extra: json,
  },
  { requiredKeys: [] },
);

const goodEvent = () => ({ type: "order.paid", domain: "order", entityId: "o-1", payload: {} });

const entityBody = fc.oneof(
  fc.record(
    {
      number: fc.oneof(str(8), json),
      status: fc.oneof(fc.constantFrom("pending", "paid", "open", "delivered"), json),
      total: fc.oneof(fc.double(), json),
      currency: fc.oneof(fc.constantFrom("EUR", "usd", "EURO"), json),
      email: fc.oneof(fc.emailAddress(), str(10)),
      title: fc.oneof(str(10), json),
      inventory: fc.oneof(fc.integer(), json),
      tags: json,
      lineItems: json,
      dueAt: fc.oneof(
        fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
        json,
      ),
    },
    { requiredKeys: [] },
  ),
  json,
);

/** A good order, and values of the wrong type for any of its fields (null is not one: PATCH clears with it). */
const GOOD_ORDER = { number: "#7", status: "pending", total: 10, currency: "EUR", email: "a@b.test" };
const WRONG = fc.oneof(fc.constant({ nested: true }), fc.constant([1, 2]), fc.constant(true));

// ── Properties ───────────────────────────────────────────────────────────────────────────────

const editor = () => shop.keys.editor;

// Up to 1,500 cases a property: on two cores shared with the other test files one can pass the
// default 30 s (a time limit on the run, not on the API). A property cut off mid-run would also
// leave its requests going while the next one compares the database.
describe("bad input never breaks the API", { timeout: 120_000 }, () => {
  test("arbitrary graphs and names on create", async () => {
    await fc.assert(
      fc.asyncProperty(graph, fc.oneof(str(20), json), async (g, name) => {
        await sendChecked(() =>
          call(createRoute, { method: "POST", key: editor(), body: { name, graph: g } }),
        );
      }),
      { numRuns: runs(RUNS.createGraph) },
    );
  });

  test("arbitrary graphs and params saved as the draft, then published", async () => {
    await fc.assert(
      fc.asyncProperty(graph, async (g) => {
        const saved = await sendChecked(() =>
          call(draftRoute, {
            method: "PUT",
            key: editor(),
            params: { id: automationId },
            body: { graph: g },
          }),
        );
        if (saved.status !== 200) return;
        const published = await sendChecked(() =>
          call(publishRoute, { method: "POST", key: editor(), params: { id: automationId } }),
        );
        if (published.status === 422) {
          const issues = (published.body as ErrorReply).error.issues ?? [];
          for (const issue of issues) expect(issue.message.length).toBeGreaterThan(0);
        }
      }),
      { numRuns: runs(RUNS.draftAndPublish) },
    );
  });

  test("token templates in every text param", async () => {
    const textSteps = [
      ["auto.action.add_note", "body"],
      ["auto.action.add_tag", "tag"],
      ["auto.action.send_email", "subject"],
      ["auto.action.send_email", "body"],
      ["auto.action.create_task", "title"],
      ["auto.control.approval", "title"],
    ] as const;
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...textSteps), template, async ([type, param], text) => {
        const g = {
          nodes: [
            { id: "t", type: "auto.trigger.order_paid", params: {} },
            { id: "a", type, params: { [param]: text, to: "{entity.email}" } },
          ],
          edges: [{ id: "e", source: "t", target: "a" }],
        };
        const saved = await sendChecked(() =>
          call(draftRoute, {
            method: "PUT",
            key: editor(),
            params: { id: automationId },
            body: { graph: g },
          }),
        );
        if (saved.status === 200)
          await sendChecked(() =>
            call(publishRoute, { method: "POST", key: editor(), params: { id: automationId } }),
          );
      }),
      { numRuns: runs(RUNS.tokens) },
    );
  });

  test("cron strings and time zones in the schedule preview", async () => {
    await fc.assert(
      fc.asyncProperty(
        cron,
        timezone,
        fc.option(fc.oneof(fc.integer({ min: -5, max: 200 }), json)),
        fc.option(
          fc.oneof(
            fc.date().map((d) => (Number.isNaN(d.getTime()) ? "x" : d.toISOString())),
            json,
          ),
        ),
        async (c, tz, count, from) => {
          const body: Record<string, unknown> = { cron: c, timezone: tz };
          if (count !== null) body.count = count;
          if (from !== null) body.from = from;
          await sendChecked(() => call(previewRoute, { method: "POST", key: shop.keys.viewer, body }));
        },
      ),
      { numRuns: runs(RUNS.cronPreview) },
    );
  });

  test("cron strings in a schedule trigger, saved and published", async () => {
    await fc.assert(
      fc.asyncProperty(cron, timezone, async (c, tz) => {
        const g = {
          nodes: [
            { id: "t", type: "auto.trigger.schedule", params: { cron: c, timezone: tz } },
            { id: "a", type: "auto.action.add_tag", params: { tag: "x" } },
          ],
          edges: [{ id: "e", source: "t", target: "a" }],
        };
        const saved = await sendChecked(() =>
          call(draftRoute, {
            method: "PUT",
            key: editor(),
            params: { id: automationId },
            body: { graph: g },
          }),
        );
        if (saved.status === 200)
          await sendChecked(() =>
            call(publishRoute, { method: "POST", key: editor(), params: { id: automationId } }),
          );
      }),
      { numRuns: runs(RUNS.cronInGraph) },
    );
  });

  test("event payloads, one at a time", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof({ weight: 4, arbitrary: event }, { weight: 1, arbitrary: json }),
        async (e) => {
          await sendChecked(() => call(eventsRoute, { method: "POST", key: editor(), body: e }));
        },
      ),
      { numRuns: runs(RUNS.eventSingle) },
    );
  });

  test("event arrays", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof(event, fc.constant(goodEvent()), json), { maxLength: 8 }),
        async (list) => {
          await sendChecked(() => call(eventsRoute, { method: "POST", key: editor(), body: list }));
        },
      ),
      { numRuns: runs(RUNS.eventArray) },
    );
  });

  test("an event with one wrong field is refused naming it", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("type", "domain", "entityId"),
        WRONG,
        fc.boolean(),
        async (field, value, inArray) => {
          const bad = { ...goodEvent(), [field]: value };
          const reply = await sendChecked(
            () =>
              call(eventsRoute, { method: "POST", key: editor(), body: inArray ? [goodEvent(), bad] : bad }),
            field,
          );
          expect(reply.status).toBeGreaterThanOrEqual(400);
        },
      ),
      { numRuns: runs(RUNS.eventOneFieldWrong) },
    );
  });

  test("entity bodies on PUT, any domain and id", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.constantFrom(...DOMAINS), str(10)),
        fc.oneof(fc.constantFrom("o-1", "n-1"), str(250)),
        entityBody,
        async (domain, id, body) => {
          await sendChecked(() =>
            call(putEntityRoute, { method: "PUT", key: editor(), params: { domain, id }, body }),
          );
        },
      ),
      { numRuns: runs(RUNS.entityPut) },
    );
  });

  test("entity bodies on PATCH", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.constant("order"), fc.constantFrom(...DOMAINS), str(10)),
        fc.oneof(fc.constant("o-1"), str(250)),
        entityBody,
        async (domain, id, body) => {
          await sendChecked(() =>
            call(patchEntityRoute, { method: "PATCH", key: editor(), params: { domain, id }, body }),
          );
        },
      ),
      { numRuns: runs(RUNS.entityPatch) },
    );
  });

  test("an order with one wrong field is refused naming it, on PUT and on PATCH", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...Object.keys(GOOD_ORDER)),
        WRONG,
        fc.boolean(),
        async (field, value, patch) => {
          const reply = await sendChecked(
            () =>
              patch
                ? call(patchEntityRoute, {
                    method: "PATCH",
                    key: editor(),
                    params: { domain: "order", id: "o-1" },
                    body: { [field]: value },
                  })
                : call(putEntityRoute, {
                    method: "PUT",
                    key: editor(),
                    params: { domain: "order", id: "o-2" },
                    body: { ...GOOD_ORDER, [field]: value },
                  }),
            field,
          );
          expect(reply.status).toBeGreaterThanOrEqual(400);
        },
      ),
      { numRuns: runs(RUNS.entityOneFieldWrong) },
    );
  });

  test("bodies that are not JSON at all", async () => {
    for (const rawBody of ["", "{", "nul", "[1,", "\u0000", '{"a":1}}']) {
      for (const [handler, method, params] of [
        [createRoute, "POST", {}],
        [eventsRoute, "POST", {}],
        [putEntityRoute, "PUT", { domain: "order", id: "o-3" }],
        [draftRoute, "PUT", { id: automationId }],
      ] as const) {
        await sendChecked(() => call(handler, { method, key: editor(), params, rawBody }));
      }
    }
  });
});

test("a NUL or half an emoji (which PostgreSQL cannot store) is a 400 naming the field, not a 500", async () => {
  // Found by the properties above: each of these was a 500 from the database before.
  const cases: [() => Promise<Reply>, string][] = [
    [
      () =>
        call(putEntityRoute, {
          method: "PUT",
          key: editor(),
          params: { domain: "order", id: "o-4" },
          body: { ...GOOD_ORDER, number: "#\u0000" },
        }),
      "number",
    ],
    [
      () =>
        call(eventsRoute, {
          method: "POST",
          key: editor(),
          body: [goodEvent(), { ...goodEvent(), payload: { note: "\ud83d" } }],
        }),
      "1.payload.note",
    ],
    [
      () =>
        call(draftRoute, {
          method: "PUT",
          key: editor(),
          params: { id: automationId },
          body: { graph: { nodes: [{ id: "t", type: "x", params: { body: "\u0000" } }], edges: [] } },
        }),
      "graph.nodes.0.params.body",
    ],
    [() => call(runsRoute, { key: editor(), path: "/api/v1/runs?entityId=%00" }), "entityId"],
  ];
  for (const [send, field] of cases) {
    const reply = await sendChecked(send, field);
    expect(reply.status).toBe(400);
  }
});

test("the run counts add up to 10,000 cases", () => {
  expect(Object.values(RUNS).reduce((a, b) => a + b, 0)).toBe(10_000);
});
