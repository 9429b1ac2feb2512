// Over 400 lines on purpose: the whole public REST contract in one table, so it reads (and diffs) as the API does.
import { z } from "zod";
import { graphSchema } from "@/lib/automations/graph/schema";
import { auditQuery } from "@/lib/audit/log";
import type { Role } from "@/lib/identity/roles";
import { buildInput } from "@/lib/automations/ai/input";
import { approvalsQuery, decisionInput } from "@/lib/automations/waits/approvals";
import { createTeamInput, updateTeamInput } from "@/lib/teams/teams";
import { dryRunInput } from "@/lib/automations/dry-run/dry-run";
import { backtestInput } from "@/lib/automations/backtest/backtest";
import { outboxQuery } from "@/lib/automations/work/outbox";
import { messageCountsQuery } from "@/lib/automations/insights/messages";
import { performanceQuery } from "@/lib/automations/performance/report";
import { attributionInput } from "@/lib/automations/performance/settings";
import { holdoutInput } from "@/lib/automations/lifecycle/set-holdout";
import { resubscribeInput } from "@/lib/consent/input";
import { connectionWritesInput, createConnectionInput, listDeliveriesQuery } from "@/lib/connections/store";
import {
  createCredentialInput,
  deleteCredentialQuery,
  rotateCredentialInput,
  updateCredentialInput,
} from "@/lib/credentials/store";
import { bulkRerunInput, MAX_BULK_RERUN, rerunInput } from "@/lib/automations/runs/rerun";
import { runsQuery } from "@/lib/automations/runs/history";
import { heldFilter, MAX_BULK_HELD } from "@/lib/automations/runs/held";
import { capsInput } from "@/lib/automations/caps/caps";
import { automationMessagingInput, messagingInput } from "@/lib/messaging/settings";
import { ALERT_KINDS, createAlertInput, updateAlertInput } from "@/lib/alerts/kinds";
import { alertHistoryQuery } from "@/lib/alerts/history";
import { firesQuery, runNowInput } from "@/lib/automations/schedules/manage";
import { previewInput } from "@/lib/automations/schedules/preview";
import { createInput } from "@/lib/automations/lifecycle/create";
import { draftInput } from "@/lib/automations/lifecycle/save-draft";
import { listQuery } from "@/lib/automations/lifecycle/list";
import { publishInput } from "@/lib/automations/lifecycle/publish";
import { revertInput } from "@/lib/automations/lifecycle/versions";
import { tasksQuery } from "@/lib/automations/work/tasks";
import { tryLaterInput } from "@/lib/automations/runs/try-later";
import { waitingQuery } from "@/lib/automations/waits/waits";
import { DOMAINS } from "@/lib/domains/domains";
import { changesInput, putSchema } from "@/lib/entities/service";
import { eventInput, MAX_BATCH } from "@/lib/events/input";
import {
  automationChangeShape,
  automationListShape,
  docs,
  automationShape,
  connectionShape,
  subscriptionsShape,
  credentialShape,
  deliveryShape,
  entityShape,
  eventBatchResultShape,
  eventResultShape,
  publishShape,
  readyIssueShape,
  recordListShape,
  runListShape,
  runShape,
  backtestShape,
  waitListShape,
  waitShape,
} from "./shapes";

/*
 * Terminology
 *
 *   endpoint   one method on one path of `/api/v1`, as the handler in app/api/v1/…/route.ts serves it
 *   role       the least role that may call it: the handler's `apiRoute({ role })`; null = public
 *   body       the zod schema the service parses the JSON body with (the same object, imported)
 *   query      the zod schema the service parses the query string with
 *   ok         the success status and the shape of its reply (lib/api/shapes.ts)
 *
 * lib/api/openapi.ts turns this list into the OpenAPI 3.1 document served at
 * `GET /api/v1/openapi.json`. tests/api/openapi.test.ts fails when a route has no entry here, when an
 * entry names no route, when a role disagrees with the handler's, and when a body the document
 * calls valid is refused (or one it calls invalid is accepted). A new route is one more object.
 */

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export type Tag =
  | "Automations"
  | "Runs"
  | "Waits and approvals"
  | "Entities and events"
  | "Work"
  | "Credentials"
  | "Store connections"
  | "Alerts"
  | "Teams"
  | "Meta";

/** Statuses an endpoint may answer with besides the ones its kind implies (see `errorStatuses`). */
export type ExtraError = 403 | 409 | 422 | 502 | 503 | 504;

export interface Endpoint {
  method: Method;
  /** OpenAPI style: `/api/v1/automations/{id}`. */
  path: `/api/v1/${string}`;
  summary: string;
  /** Markdown, shown under the summary. */
  description?: string;
  tag: Tag;
  /** The least role that may call it, as in the handler's `apiRoute({ role })`; null: no key needed. */
  role: Role | null;
  /** Path parameters that are not plain strings (default: a string). */
  params?: Record<string, z.ZodType>;
  query?: z.ZodType;
  /** The JSON body's schema: the very object the service parses it with. */
  body?: z.ZodType;
  /** An empty body is read as `{}` (every field is optional). */
  bodyOptional?: true;
  /** A valid body, shown in the document (and sent by the tests instead of one made from the schema). */
  example?: unknown;
  ok: { status: 200 | 201 | 202 | 204; description: string; schema?: z.ZodType };
  errors?: readonly ExtraError[];
}

const automation = { status: 200, description: "The automation.", schema: automationShape } as const;
const wait = { status: 200, description: "The wait, as it is now.", schema: waitShape } as const;
const list = (description: string) => ({ status: 200, description, schema: recordListShape }) as const;

const change = {
  status: 200,
  description: "The automation, and what the change did to the runs waiting now.",
  schema: automationChangeShape,
} as const;

const cancelled = {
  status: 200,
  description: "How many waits were cancelled.",
  schema: z.object({ cancelled: z.int().min(0) }),
} as const;

const A = "/api/v1/automations/{id}";

const heldOutcomeShape = z.object({ runIds: z.array(z.uuid()), impact: z.string() });

const alertRuleShape = z
  .object({
    id: z.uuid(),
    kind: z.enum(ALERT_KINDS),
    kindLabel: z.string(),
    automationId: z.uuid().nullable(),
    automationName: z.string().nullable(),
    channel: z.discriminatedUnion("type", [
      z.object({ type: z.literal("email") }),
      z.object({
        type: z.literal("slack"),
        credentialId: z.uuid(),
        credentialName: z.string().nullable(),
        channel: z.string().nullable(),
      }),
      z.object({
        type: z.literal("webhook"),
        url: z.string().meta({ description: "The address; a viewer sees it only up to its host." }),
        secretSet: z
          .literal(true)
          .meta({ description: "The signing secret is write-only: never sent back." }),
      }),
    ]),
    params: z.looseObject({}),
    enabled: z.boolean(),
    sentence: z.string(),
    createdBy: z.string(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: "AlertRule" });

const alertHistoryShape = z.object({
  id: z.uuid(),
  ruleId: z.uuid().nullable(),
  automationId: z.uuid().nullable(),
  automationName: z.string(),
  kind: z.enum(ALERT_KINDS),
  message: z.string(),
  count: z.int(),
  runsUrl: z.string(),
  channel: z.string(),
  status: z.enum(["pending", "sent", "failed"]),
  error: z.string().nullable(),
  attempts: z.int(),
  createdAt: z.string(),
  sentAt: z.string().nullable(),
});

const ALERT = "/api/v1/alerts/{id}";

export const CONTRACT: readonly Endpoint[] = [
  // ── Automations ────────────────────────────────────────────────────────────────────────────
  {
    method: "GET",
    path: "/api/v1/automations",
    summary: "List automations",
    description: "Newest change first; archived ones only with `status=archived`.",
    tag: "Automations",
    role: "viewer",
    query: listQuery,
    ok: { status: 200, description: "A page of automations.", schema: automationListShape },
  },
  {
    method: "POST",
    path: "/api/v1/automations",
    summary: "Create an automation (a draft)",
    tag: "Automations",
    role: "editor",
    body: createInput,
    example: {
      name: "Thank paid orders",
      graph: {
        nodes: [
          { id: "t", type: "auto.trigger.order_paid", params: {} },
          { id: "tag", type: "auto.action.add_tag", params: { tag: "paid" } },
        ],
        edges: [{ id: "e1", source: "t", target: "tag" }],
      },
    },
    ok: { status: 201, description: "The new draft.", schema: automationShape },
  },
  {
    method: "GET",
    path: A,
    summary: "Get an automation",
    description: "With its draft and active graphs, version and ready issues.",
    tag: "Automations",
    role: "viewer",
    ok: automation,
  },
  {
    method: "DELETE",
    path: A,
    summary: "Archive an automation",
    description: "Runs, versions and history are kept; built-in automations refuse (409).",
    tag: "Automations",
    role: "editor",
    ok: { ...automation, description: "The archived automation." },
    errors: [409],
  },
  {
    method: "PUT",
    path: `${A}/draft`,
    summary: "Save the draft",
    description:
      "Any of `graph`, `name`, `description`, `inFlightPolicy`. Send `baseRevision` (the `draftRevision` you read) to be refused with 409 instead of overwriting someone else's save.",
    tag: "Automations",
    role: "editor",
    body: draftInput,
    ok: automation,
    errors: [409],
  },
  {
    method: "POST",
    path: `${A}/publish`,
    summary: "Publish the draft as the next version",
    description: "Ready issues block it (422, one issue per problem).",
    tag: "Automations",
    role: "editor",
    body: publishInput,
    bodyOptional: true,
    ok: {
      status: 200,
      description: "The automation; `published` is false when the draft was already the active version.",
      schema: publishShape,
    },
    errors: [409],
  },
  {
    method: "PUT",
    path: `${A}/caps`,
    summary: "Set an automation's caps",
    description:
      'Limits on the runs it starts, changed at once without a new version: `maxRunsPerHour` (rolling hour), `maxPerRecord {count, hours}` ("one email per customer per 16 h"), `pauseOnStorm` (pause when the hourly cap holds a run). A run past a cap is `held` until released or discarded. Fields left out keep their value; `null` takes a limit off.',
    tag: "Automations",
    role: "editor",
    body: capsInput,
    example: { maxRunsPerHour: 100, maxPerRecord: { count: 1, hours: 16 }, pauseOnStorm: true },
    ok: automation,
    errors: [422],
  },
  {
    method: "PUT",
    path: `${A}/messaging`,
    summary: "Set an automation's message priority and expiry",
    description:
      "Which of a customer's deferred marketing messages goes first when the shop's cap lets one through (`priority`: high, normal, low; default normal; ties go to the one deferred first), and how long one may stay deferred before it is skipped (`expireAfterHours`, default 48). Changed at once, without a new version. See docs/customers-and-consent.md.",
    tag: "Automations",
    role: "editor",
    body: automationMessagingInput,
    example: { priority: "high", expireAfterHours: 24 },
    ok: { status: 200, description: "The automation's priority and expiry." },
    errors: [422],
  },
  {
    method: "GET",
    path: "/api/v1/shop/messaging",
    summary: "Quiet hours and the shop's cap on marketing messages",
    description:
      "Quiet hours (`{start, end}`, read in each customer's own time zone; default 21:00–08:00) and the cap on marketing messages per customer across all automations (`{count, hours}`; default 1 per 16 hours); `null` is off. With a sentence saying both.",
    tag: "Automations",
    role: "viewer",
    ok: { status: 200, description: "The settings." },
  },
  {
    method: "PUT",
    path: "/api/v1/shop/messaging",
    summary: "Set quiet hours and the shop's cap",
    description:
      "A part left out keeps its value; `null` turns it off. A marketing message due inside the customer's quiet hours waits until they end; one over the cap is deferred, by the automations' priority, and its path's conditions are checked again when it goes. Transactional messages never wait. Audited.",
    tag: "Automations",
    role: "admin",
    body: messagingInput,
    example: { quietHours: { start: "21:00", end: "08:00" }, cap: { count: 1, hours: 16 } },
    ok: { status: 200, description: "The settings as saved." },
    errors: [422],
  },
  {
    method: "GET",
    path: "/api/v1/automations/brake",
    summary: "The emergency brake: on or off, and what pulling it would do",
    description:
      "`brake` `{on, engagedAt, engagedBy, automations}`; `impact` `{activeAutomations, waitingRuns, schedules, sentence}` — the confirm dialog's sentence.",
    tag: "Automations",
    role: "viewer",
    ok: { status: 200, description: "The brake and its impact." },
  },
  {
    method: "POST",
    path: "/api/v1/automations/pause-all",
    summary: "Pull the emergency brake: pause every active automation",
    description:
      "Pauses every active automation of the shop at once and remembers which; schedules do not fire and waiting runs hold (they are not cancelled) until `resume-all`. Audited. 409 when it is already on.",
    tag: "Automations",
    role: "admin",
    ok: { status: 200, description: "`{brake, impact}`: the brake now on, and what it paused." },
    errors: [409],
  },
  {
    method: "POST",
    path: "/api/v1/automations/resume-all",
    summary: "Release the emergency brake",
    description:
      "Activates exactly the automations the brake paused (not those paused before it, nor ones changed since), and resumes the runs that fell due while it was on, in the order they fell due, once each. Audited. 409 when it is off.",
    tag: "Automations",
    role: "admin",
    ok: {
      status: 200,
      description:
        "`{brake, resumedAutomations, heldWaits}`: the brake off, how many automations and held waits resumed.",
    },
    errors: [409],
  },
  {
    method: "POST",
    path: `${A}/pause`,
    summary: "Pause an automation",
    tag: "Automations",
    role: "editor",
    ok: change,
    errors: [409],
  },
  {
    method: "POST",
    path: `${A}/activate`,
    summary: "Activate an automation",
    tag: "Automations",
    role: "editor",
    ok: change,
    errors: [409, 422],
  },
  {
    method: "POST",
    path: `${A}/restore`,
    summary: "Restore an archived automation (as paused)",
    tag: "Automations",
    role: "editor",
    ok: automation,
    errors: [409],
  },
  {
    method: "POST",
    path: `${A}/reset-to-builtin`,
    summary: "Reset a built-in automation to the platform's definition",
    tag: "Automations",
    role: "admin",
    ok: automation,
    errors: [409],
  },
  {
    method: "GET",
    path: `${A}/messages`,
    summary: "Messages sent and skipped for consent",
    description:
      "In the last 7 (or 30) days of runs: emails and customer-facing requests sent, and marketing ones skipped because the customer does not accept marketing (`skippedConsent`) or unsubscribed (`skippedUnsubscribed`); marketing ones that waited for the customer's quiet hours (`waitedQuietHours`), were deferred by the shop's cap (`deferred`), expired deferred (`expired`) or were skipped because a condition on their path no longer held when their turn came (`skippedConditions`).",
    tag: "Automations",
    role: "viewer",
    query: messageCountsQuery,
    ok: { status: 200, description: "The counts." },
  },
  {
    method: "GET",
    path: `${A}/performance`,
    summary: "Conversions, attributed revenue and the holdout comparison",
    description:
      "In shop days `from`–`to` (default the last 30), optionally one `version`: `recipients`, `touches`, `conversions`, `revenue` (a decimal string in `currency`; orders in other currencies in `otherCurrencies`, never added in), `revenuePerRecipient`, `byDay`, `bySteps`, `byVersion`, `splits` (by branch) and `holdout` (treated vs held out, with 95 % intervals for the differences; null without a holdout). Read from the attributions written when the orders came (docs/performance-of-automations.md).",
    tag: "Automations",
    role: "viewer",
    query: performanceQuery,
    ok: { status: 200, description: "The report." },
  },
  {
    method: "GET",
    path: `${A}/attributions`,
    summary: "The orders attributed to an automation",
    description:
      "`{ from, to, items: [{ orderId, amount, currency, customerId, email, runId, nodeId, version, branch, heldOut, touchedAt, at }] }`, newest first, at most 10,000; `format=csv` answers the same as a CSV file.",
    tag: "Automations",
    role: "viewer",
    query: performanceQuery,
    ok: { status: 200, description: "The attributed orders." },
  },
  {
    method: "PUT",
    path: `${A}/holdout`,
    summary: "Hold out a share of an automation's customers",
    description:
      "`{ percent: 0..50 }`, for runs starting afterwards: a held-out customer's run takes no actions and ends `held_out`, the comparison group of the Performance report. Chosen by a stable hash of automation and customer. 0 turns it off.",
    tag: "Automations",
    role: "editor",
    body: holdoutInput,
    example: { percent: 10 },
    ok: automation,
    errors: [422],
  },
  {
    method: "GET",
    path: "/api/v1/settings/attribution",
    summary: "The shop's goal and attribution window",
    description:
      "`{ goal: order_paid|order_created, windowDays: 1..30, currency }` (defaults `order_paid`, 5, null).",
    tag: "Automations",
    role: "viewer",
    ok: { status: 200, description: "The settings." },
  },
  {
    method: "PUT",
    path: "/api/v1/settings/attribution",
    summary: "Set the shop's goal and attribution window",
    description:
      "Any of `goal`, `windowDays`, `currency` (the currency the report sums in; null: the one most attributed orders are in). Hold for orders recorded from now on. Audited.",
    tag: "Automations",
    role: "admin",
    body: attributionInput,
    example: { goal: "order_paid", windowDays: 5 },
    ok: { status: 200, description: "The settings now." },
    errors: [422],
  },
  {
    method: "POST",
    path: `${A}/dry-run`,
    summary: "Dry-run the draft (changes nothing)",
    description:
      "What the draft (or the `graph` sent) would do for a record or payload, step by step, without doing it. Viewers may run it.",
    tag: "Automations",
    role: "viewer",
    body: dryRunInput,
    bodyOptional: true,
    ok: { status: 200, description: "The steps it would take." },
  },
  {
    method: "POST",
    path: `${A}/backtest`,
    summary: "Backtest the draft on the latest real runs (changes nothing)",
    description:
      "Replays the automation's latest real runs (`limit`, 50 by default, at most 500) through the draft, or the `graph` sent, with no effects, each on its record as it is now and through every wait as if it had ended — an approval with the decision the real run got, a wait for an event with the event that woke it; one the real run never had is followed each way it could go. `then` and `now` count the runs that reached each step, `changed` lists the runs whose path changed, `unknown` those whose later steps are not known yet (the real run still waits or runs), `headline` and `sentences` say it in words.",
    tag: "Automations",
    role: "editor",
    body: backtestInput,
    bodyOptional: true,
    example: { limit: 50 },
    ok: { status: 200, description: "What the runs did then and would do now.", schema: backtestShape },
  },
  {
    method: "POST",
    path: `${A}/run-now`,
    summary: "Fire a scheduled automation now",
    tag: "Automations",
    role: "editor",
    body: runNowInput,
    bodyOptional: true,
    ok: { status: 202, description: "The fire, queued." },
    errors: [409, 422],
  },
  {
    method: "POST",
    path: `${A}/try-later`,
    summary: "Run a later step now, as if it were due",
    description:
      "Starts a real run at the automation's Later trigger for `step`, handed `then` as `event.then`, on the active version.",
    tag: "Automations",
    role: "editor",
    body: tryLaterInput,
    example: { step: "check-in", then: { order: "#9001" } },
    ok: { status: 201, description: "The run it started.", schema: z.object({ run: runShape }) },
    errors: [409, 422],
  },
  {
    method: "GET",
    path: `${A}/fires`,
    summary: "List a scheduled automation's fires",
    description: "Latest first, missed ones included.",
    tag: "Automations",
    role: "viewer",
    query: firesQuery,
    ok: list("A page of fires."),
  },
  {
    method: "GET",
    path: `${A}/versions`,
    summary: "List published versions",
    tag: "Automations",
    role: "viewer",
    ok: {
      status: 200,
      description: "Every version, newest first (one page).",
      schema: z.object({ items: z.array(z.looseObject({ version: z.int() })), nextCursor: z.null() }),
    },
  },
  {
    method: "POST",
    path: `${A}/versions/{version}/revert`,
    summary: "Revert to a version (publishes it again as the next version)",
    description:
      "Brings back the version's steps, name and in-flight policy; `inFlightPolicy` keeps another policy instead.",
    tag: "Automations",
    role: "editor",
    params: { version: z.string().regex(/^[1-9][0-9]*$/) },
    body: revertInput,
    bodyOptional: true,
    ok: automation,
    errors: [409, 422],
  },
  {
    method: "GET",
    path: `${A}/waiting`,
    summary: "List an automation's pending waits and later steps",
    tag: "Waits and approvals",
    role: "viewer",
    query: waitingQuery,
    ok: { status: 200, description: "A page of pending waits, soonest first.", schema: waitListShape },
  },
  {
    method: "POST",
    path: `${A}/waiting/cancel-all`,
    summary: "Cancel every pending wait of an automation",
    tag: "Waits and approvals",
    role: "editor",
    ok: cancelled,
  },

  // ── Runs ───────────────────────────────────────────────────────────────────────────────────
  {
    method: "GET",
    path: "/api/v1/runs",
    summary: "List runs",
    description:
      "Newest first, keyset-paginated; filter by automation, status, record and time, by whose automations (`platform`: mine, builtin or all, default all), and find one run by `run`: its short id (the last 8 characters of its id, as the app shows runs; 4 to 12 of them) or its full id. Besides a status, `status` takes `failed_or_partial` (every run with a failed action) and `nothing_to_do` (succeeded runs that took no action). Each run carries `actionsTaken` once settled: 0 on a succeeded run means nothing to do.",
    tag: "Runs",
    role: "viewer",
    query: runsQuery,
    ok: { status: 200, description: "A page of runs.", schema: runListShape },
  },
  {
    method: "GET",
    path: "/api/v1/runs/{id}",
    summary: "Get a run",
    description: "Every step of every leg, in order, and its waits.",
    tag: "Runs",
    role: "viewer",
    ok: { status: 200, description: "The run.", schema: runShape },
  },
  {
    method: "POST",
    path: "/api/v1/runs/{id}/rerun",
    summary: "Re-run a failed, partial or cancelled run",
    description:
      "A new run of the automation's active version for the same event and record (as it is now), linked by `rerunOf`; `from: failed_step` starts at the step that failed and skips the steps before it.",
    tag: "Runs",
    role: "editor",
    body: rerunInput,
    bodyOptional: true,
    example: { from: "start" },
    ok: {
      status: 201,
      description: "The new run, and what it does.",
      schema: z.object({ run: runShape, impact: z.string() }),
    },
    errors: [409, 422],
  },
  {
    method: "POST",
    path: "/api/v1/runs/rerun",
    summary: "Re-run the runs a filter picks",
    description: `Failed, partial or cancelled runs, by \`ids\` or by automation and status, newest first, at most ${MAX_BULK_RERUN}; runs that cannot be re-run are skipped and counted in \`impact\`.`,
    tag: "Runs",
    role: "editor",
    body: bulkRerunInput,
    bodyOptional: true,
    ok: {
      status: 201,
      description: "The new runs' ids, and what was done.",
      schema: z.object({ runIds: z.array(z.uuid()), impact: z.string() }),
    },
  },

  {
    method: "POST",
    path: "/api/v1/runs/{id}/release",
    summary: "Release a held run",
    description:
      "Starts a run a cap held, exactly once, on the version it was held on; releasing it again, or a run that is not held, is a 409 that says why. The automation must be active.",
    tag: "Runs",
    role: "editor",
    ok: { status: 200, description: "The run released.", schema: heldOutcomeShape },
    errors: [409],
  },
  {
    method: "POST",
    path: "/api/v1/runs/{id}/discard",
    summary: "Discard a held run",
    description: "Cancels a run a cap held; it never starts. A run that is not held is a 409.",
    tag: "Runs",
    role: "editor",
    ok: { status: 200, description: "The run discarded.", schema: heldOutcomeShape },
    errors: [409],
  },
  {
    method: "POST",
    path: "/api/v1/runs/release",
    summary: "Release the held runs a filter picks",
    description: `Every held run of \`automationId\`, or the held runs among \`ids\`, or all of the shop's, oldest first, at most ${MAX_BULK_HELD}; each starts exactly once.`,
    tag: "Runs",
    role: "editor",
    body: heldFilter,
    bodyOptional: true,
    ok: { status: 200, description: "The runs released.", schema: heldOutcomeShape },
    errors: [409],
  },
  {
    method: "POST",
    path: "/api/v1/runs/discard",
    summary: "Discard the held runs a filter picks",
    description: `Every held run of \`automationId\`, or the held runs among \`ids\`, or all of the shop's, oldest first, at most ${MAX_BULK_HELD}.`,
    tag: "Runs",
    role: "editor",
    body: heldFilter,
    bodyOptional: true,
    ok: { status: 200, description: "The runs discarded.", schema: heldOutcomeShape },
  },

  // ── Waits and approvals ────────────────────────────────────────────────────────────────────
  {
    method: "GET",
    path: "/api/v1/waiting",
    summary: "List every pending wait of the shop",
    tag: "Waits and approvals",
    role: "viewer",
    query: waitingQuery,
    ok: { status: 200, description: "A page of pending waits, soonest first.", schema: waitListShape },
  },
  {
    method: "POST",
    path: "/api/v1/waiting/cancel-all",
    summary: "Cancel every pending wait of the shop",
    tag: "Waits and approvals",
    role: "editor",
    ok: cancelled,
  },
  {
    method: "POST",
    path: "/api/v1/waits/{id}/cancel",
    summary: "Cancel a wait",
    tag: "Waits and approvals",
    role: "editor",
    ok: wait,
    errors: [409],
  },
  {
    method: "POST",
    path: "/api/v1/waits/{id}/resume-now",
    summary: "Resume a wait now, as if its time had come",
    tag: "Waits and approvals",
    role: "editor",
    ok: wait,
    errors: [409],
  },
  {
    method: "GET",
    path: "/api/v1/approvals",
    summary: "List approvals",
    tag: "Waits and approvals",
    role: "viewer",
    query: approvalsQuery,
    ok: list("A page of approvals, pending ones by default."),
  },
  {
    method: "POST",
    path: "/api/v1/approvals/{waitId}",
    summary: "Decide an approval",
    description:
      "Casts the caller's vote: one per person, whichever way it arrives (an API key votes as the person who made it, or as itself when the operator's CLI made it); a second vote is a 409. A step with `approverRole` alone is decided by the first vote; a quorum (`approvers`) when every rule is met, or rejected per its `reject` rule. 403 when the caller is not among those asked, or started the run and self-approval is off. The reply has the `votes` and what is still `needed`.",
    tag: "Waits and approvals",
    role: "editor",
    body: decisionInput,
    example: { decision: "approved", note: "Checked the address." },
    ok: { status: 200, description: "The approval, decided." },
    errors: [403, 409],
  },

  // ── Entities and events ────────────────────────────────────────────────────────────────────
  {
    method: "GET",
    path: "/api/v1/entities/{domain}/{id}",
    summary: "Get a record",
    description: "The domain's fields, plus `id`, `domain`, `tags` and `notes`.",
    tag: "Entities and events",
    role: "viewer",
    params: { domain: z.enum(DOMAINS) },
    ok: { status: 200, description: "The record.", schema: entityShape },
  },
  {
    method: "PUT",
    path: "/api/v1/entities/{domain}/{id}",
    summary: "Create or replace a record",
    description:
      "The body is the domain's fields (one schema per domain below), plus `tags` to set and `notes` to add. Anything else the source sent goes under `attributes`, any JSON object of at most 64 KB, which conditions and tokens read by path (`attributes.note_attributes.0.value`); larger is a 422 that changes nothing. A new record emits `<domain>.created`; a status change emits `<domain>.status_changed` and the event its status names (`order.paid`, …).",
    tag: "Entities and events",
    role: "editor",
    params: { domain: z.enum(DOMAINS) },
    // Each domain's schema is a named component (`OrderInput`, …), so the viewer shows them by name.
    body: z.union(
      DOMAINS.map((domain) =>
        putSchema(domain).register(docs, { id: `${domain[0]!.toUpperCase()}${domain.slice(1)}` }),
      ),
    ),
    example: { number: "#9001", status: "pending", total: 25, currency: "EUR", tags: ["vip"] },
    ok: { status: 200, description: "The record (201 when it is new).", schema: entityShape },
  },
  {
    method: "PATCH",
    path: "/api/v1/entities/{domain}/{id}",
    summary: "Change some fields of a record",
    description:
      "Merges the fields sent into the stored record, then checks it as a PUT would; a status change emits the same events.",
    tag: "Entities and events",
    role: "editor",
    params: { domain: z.enum(DOMAINS) },
    body: changesInput,
    example: { status: "paid" },
    ok: { status: 200, description: "The record.", schema: entityShape },
  },
  {
    method: "DELETE",
    path: "/api/v1/entities/{domain}/{id}",
    summary: "Delete a record",
    tag: "Entities and events",
    role: "editor",
    params: { domain: z.enum(DOMAINS) },
    ok: { status: 204, description: "Deleted." },
  },
  {
    method: "POST",
    path: "/api/v1/events",
    summary: "Record an event, or an array of them",
    description: `One event (201; 200 with \`duplicate: true\` when its \`id\` was recorded before), or an array of 1 to ${MAX_BATCH.toLocaleString("en")} recorded all or nothing: one bad event refuses the whole array with a 422 whose \`issues\` name each problem by index (\`3.type\`). Arrays may be up to 5 MB, one event up to 1 MB.`,
    tag: "Entities and events",
    role: "editor",
    body: z.union([eventInput, z.array(eventInput).min(1).max(MAX_BATCH)]),
    example: { id: "ext-1", type: "order.fulfilled", domain: "order", entityId: "ord_9001" },
    ok: {
      status: 201,
      description: "The event (or, for an array, one `{ id, duplicate }` per event, in order).",
      schema: z.union([eventResultShape, eventBatchResultShape]),
    },
  },

  // ── Work: tasks, outbox, schedules ─────────────────────────────────────────────────────────
  {
    method: "GET",
    path: "/api/v1/tasks",
    summary: "List staff tasks created by flows",
    tag: "Work",
    role: "viewer",
    query: tasksQuery,
    ok: list("A page of tasks, open ones by default."),
  },
  {
    method: "POST",
    path: "/api/v1/tasks/{id}/done",
    summary: "Mark a task done",
    tag: "Work",
    role: "editor",
    ok: { status: 200, description: "The task." },
  },
  {
    method: "GET",
    path: "/api/v1/customers/{id}/consent",
    summary: "A customer's marketing consent",
    description:
      "Whether marketing steps reach the customer, when and how they unsubscribed (`link`: the email's one-click link; `store`: their connected store says they accept no marketing; `merchant`), and the shop's last re-subscribe with its reason.",
    tag: "Entities and events",
    role: "viewer",
    ok: { status: 200, description: "The customer's consent." },
  },
  {
    method: "POST",
    path: "/api/v1/customers/{id}/resubscribe",
    summary: "Subscribe a customer to marketing again",
    description:
      "Only with the customer's own say-so: the reason is required and kept in the audit log (`customer.resubscribed`). Clears the unsubscribe and sets `acceptsMarketing`.",
    tag: "Entities and events",
    role: "editor",
    body: resubscribeInput,
    example: { reason: "Asked to be subscribed again at the counter" },
    ok: { status: 200, description: "The customer's consent, as it is now." },
    errors: [409],
  },
  {
    method: "GET",
    path: "/api/v1/outbox",
    summary: "List emails and HTTP deliveries",
    tag: "Work",
    role: "viewer",
    query: outboxQuery,
    ok: list("A page of emails (`kind=email`, the default) or HTTP deliveries (`kind=http`)."),
  },
  {
    method: "POST",
    path: "/api/v1/schedules/preview",
    summary: "Preview a schedule (changes nothing)",
    description:
      "The next fire times of a cron expression in a time zone, the DST rule, and the audience's size now.",
    tag: "Work",
    role: "viewer",
    body: previewInput,
    example: { cron: "0 9 * * 1", timezone: "Europe/Paris", count: 3 },
    ok: {
      status: 200,
      description: "The preview; `problem` says what is wrong with the schedule, if anything.",
    },
  },

  {
    method: "POST",
    path: "/api/v1/ai/build",
    summary: "Build a draft flow from a sentence (AI builder)",
    description:
      "Asks the configured model (an OpenAI-compatible endpoint: `AI_BASE_URL`, `AI_MODEL`, `AI_API_KEY`) for a flow, compiles and lays it out, and checks it as the editor does; an answer with problems is sent back to the model once. Nothing is saved: create a draft with `POST /api/v1/automations` and the `graph`. `notes` says what was assumed. 503 when no model is set up or the provider is rate limiting, 502 when it fails, 504 when it does not answer in time.",
    tag: "Automations",
    role: "editor",
    body: buildInput,
    example: { prompt: "When an order is paid, wait 2 days, then email the customer asking for a review." },
    ok: {
      status: 200,
      description: "The flow, its ready issues and what was assumed.",
      schema: z.object({
        name: z.string(),
        graph: graphSchema,
        readyIssues: z.array(readyIssueShape),
        notes: z.array(z.string()),
      }),
    },
    errors: [502, 503, 504],
  },
  // ── Credentials ────────────────────────────────────────────────────────────────────────────
  {
    method: "GET",
    path: "/api/v1/credentials",
    summary: "List the shop's credentials",
    description:
      "Names, kinds and the last 4 characters of each secret; a value is never sent back, to any role.",
    tag: "Credentials",
    role: "viewer",
    ok: {
      status: 200,
      description: "Every credential of the shop.",
      schema: z.object({ items: z.array(credentialShape), nextCursor: z.null() }),
    },
  },
  {
    method: "POST",
    path: "/api/v1/credentials",
    summary: "Store a secret as a credential",
    description:
      "Admins only. Encrypted at rest (AES-256-GCM). Graphs refer to it by id: `auth: {credentialId}` on an HTTP request, `secretCredentialId` on a webhook trigger. `allowedHosts` (at least one for `bearer`, `basic` and `http_header`) lists the hosts an HTTP step may send it to; a step, dry run or Run now that would send it elsewhere, or a redirect that leaves them, is refused with a sentence before anything is sent.",
    tag: "Credentials",
    role: "admin",
    body: createCredentialInput,
    example: {
      name: "Loyalty API",
      kind: "bearer",
      value: "sk_live_4eC39HqLyjWDarjtT1zdp7dc",
      allowedHosts: ["api.loyalty.example"],
    },
    ok: { status: 201, description: "The credential (without its value).", schema: credentialShape },
    errors: [409],
  },
  {
    method: "GET",
    path: "/api/v1/credentials/{id}",
    summary: "Read one credential (without its value)",
    tag: "Credentials",
    role: "viewer",
    ok: { status: 200, description: "The credential.", schema: credentialShape },
  },
  {
    method: "PUT",
    path: "/api/v1/credentials/{id}",
    summary: "Rotate a credential",
    description:
      "Admins only. Replaces the value (and optionally the name); every flow that uses it sends the new one from now on. Refused with 409, naming the rule, while an alert rule sends through it, unless the body says `confirm: true`.",
    tag: "Credentials",
    role: "admin",
    body: rotateCredentialInput,
    example: { value: "sk_live_51HqLyjWDarjtT1zdp7dcNEW" },
    ok: { status: 200, description: "The credential (without its value).", schema: credentialShape },
    errors: [409],
  },
  {
    method: "PATCH",
    path: "/api/v1/credentials/{id}",
    summary: "Set the hosts a credential may be sent to",
    description:
      "Admins only. Replaces `allowedHosts` (and optionally the name) of a credential an HTTP step sends (`bearer`, `basic`, `http_header`); at least one host. A Slack webhook's host is its URL's: rotate it instead.",
    tag: "Credentials",
    role: "admin",
    body: updateCredentialInput,
    example: { allowedHosts: ["api.loyalty.example", "*.loyalty.example"] },
    ok: { status: 200, description: "The credential (without its value).", schema: credentialShape },
    errors: [409],
  },
  {
    method: "DELETE",
    path: "/api/v1/credentials/{id}",
    summary: "Delete a credential",
    description:
      "Admins only. Refused with 409, naming them, while an active automation's published version uses it, or while an alert rule sends through it — the latter unless the query says `?confirm=true`.",
    tag: "Credentials",
    role: "admin",
    query: deleteCredentialQuery,
    ok: { status: 200, description: "`{ id, deleted: true }`." },
    errors: [409],
  },
  // ── Store connections ──────────────────────────────────────────────────────────────────────
  {
    method: "GET",
    path: "/api/v1/connections",
    summary: "List the shop's store connections",
    description: "Each connected store with its webhook URL; the secret is never sent back, to any role.",
    tag: "Store connections",
    role: "viewer",
    ok: {
      status: 200,
      description: "Every connection of the shop.",
      schema: z.object({ items: z.array(connectionShape), nextCursor: z.null() }),
    },
  },
  {
    method: "POST",
    path: "/api/v1/connections",
    summary: "Connect a Shopify or WooCommerce store",
    description:
      "Connect in one step: with `shopDomain` and an Admin API `adminToken` (Shopify), or `storeUrl` and a REST key `restKey` (`ck_…:cs_…`, WooCommerce), Tillflow also registers a webhook for every topic it reads, pointing at the connection's URL, and the reply lists them (`subscriptions`); the token or key becomes a write credential for the store actions. Without them, stores the platform's webhook secret as a credential and returns the URL to paste into the platform's webhook settings. Deliveries to it are checked against the secret (`X-Shopify-Hmac-Sha256` / `X-WC-Webhook-Signature`: base64 HMAC-SHA256 of the raw body), answered 200 at once and applied by the worker through the same upsert as `PUT /api/v1/entities/{domain}/{id}`, so the same events and flows start.",
    tag: "Store connections",
    role: "editor",
    body: createConnectionInput,
    example: {
      platform: "shopify",
      name: "nordlicht-goods.myshopify.com",
      secret: "a1b2c3d4e5f6a7b8c9d0",
      shopDomain: "nordlicht-goods.myshopify.com",
      adminToken: "shpat_0123456789abcdef0123456789abcdef",
    },
    ok: {
      status: 201,
      description: "The connection, with its URL (never its secret).",
      schema: connectionShape,
    },
    errors: [409],
  },
  {
    method: "GET",
    path: "/api/v1/connections/{id}",
    summary: "Read one store connection",
    tag: "Store connections",
    role: "viewer",
    ok: { status: 200, description: "The connection.", schema: connectionShape },
  },
  {
    method: "DELETE",
    path: "/api/v1/connections/{id}",
    summary: "Disconnect a store",
    description:
      "Its URL stops answering (404); its secret, its write credential and its deliveries are deleted. Records it sent stay. With a Shopify token or a WooCommerce key, the webhooks Tillflow registered are deleted in the store first (`webhooks: { removed, error? }`).",
    tag: "Store connections",
    role: "editor",
    ok: { status: 200, description: "`{ id, deleted: true, webhooks? }`." },
  },
  {
    method: "GET",
    path: "/api/v1/connections/{id}/subscriptions",
    summary: "List a connection's webhooks in its store",
    description:
      "Each topic Tillflow reads, `active` when a webhook delivers it to this connection's URL, `paused` when WooCommerce paused or disabled it, else `missing` — read from the store with the connection's Admin API token or REST key. A connection without one is a 409.",
    tag: "Store connections",
    role: "viewer",
    ok: { status: 200, description: "The topics and their state.", schema: subscriptionsShape },
    errors: [409],
  },
  {
    method: "POST",
    path: "/api/v1/connections/{id}/subscriptions/repair",
    summary: "Create a connection's missing webhooks in its store",
    description:
      "Creates a webhook for each missing topic, pointing at the connection's URL, and sets a paused WooCommerce one active again (audited).",
    tag: "Store connections",
    role: "editor",
    ok: {
      status: 200,
      description: "The topics after, and how many were created.",
      schema: subscriptionsShape.extend({ created: z.number().int() }),
    },
    errors: [409],
  },
  {
    method: "PUT",
    path: "/api/v1/connections/{id}/writes",
    summary: "Add or replace a connection's Admin API token or REST key",
    description:
      "For a store connected without one (webhooks only) or whose token was revoked: Shopify takes `shopDomain` and `adminToken`, and, the first time, `secret` — the app's API secret key, which becomes the connection's webhook secret since Shopify signs the subscriptions an app makes with it; WooCommerce takes `storeUrl` and `restKey`. A replaced token keeps its credential (flows name it) and its host: a token for another shop is a 409. Then the webhooks are registered as when connecting with a token (`subscriptions`). Audited; the reply never holds the token.",
    tag: "Store connections",
    role: "editor",
    body: connectionWritesInput,
    example: {
      shopDomain: "nordlicht-goods.myshopify.com",
      adminToken: "shpat_0123456789abcdef0123456789abcdef",
      secret: "a1b2c3d4e5f6a7b8c9d0",
    },
    ok: {
      status: 200,
      description: "The connection, with `writes` and `subscriptions`.",
      schema: connectionShape,
    },
    errors: [409],
  },
  {
    method: "GET",
    path: "/api/v1/connections/{id}/deliveries",
    summary: "List a connection's deliveries",
    description:
      "Every webhook the store posted, newest first: its topic, the record it touched, and its result — applied, duplicate, stale or refused — with why.",
    tag: "Store connections",
    role: "viewer",
    query: listDeliveriesQuery,
    ok: {
      status: 200,
      description: "A page of deliveries.",
      schema: z.object({ items: z.array(deliveryShape), nextCursor: z.string().nullable() }),
    },
  },
  // ── Alerts ─────────────────────────────────────────────────────────────────────────────────
  {
    method: "GET",
    path: "/api/v1/alerts",
    summary: "List the shop's alert rules",
    description:
      "Every rule: what it watches, about which automation, and where it sends. A webhook's secret is never sent back.",
    tag: "Alerts",
    role: "viewer",
    ok: {
      status: 200,
      description: "Every alert rule of the shop.",
      schema: z.object({ items: z.array(alertRuleShape), nextCursor: z.null() }),
    },
  },
  {
    method: "POST",
    path: "/api/v1/alerts",
    summary: "Add an alert rule",
    description:
      "Kinds: `failed_runs` (a digest per automation, at most one per 15 minutes), `silence` (`params.hours`), `storm` (`params.maxRunsPerHour`, 5× the usual busiest hour, or a cap), `overdue_waits` (`params.minutes`), `approval_overdue`. `automationId` null or left out: every automation of the shop. Channels: `{type: email}` (the shop's staff), `{type: slack, credentialId, channel?}`, `{type: webhook, url, secret}` (Standard Webhooks signature; the secret is write-only).",
    tag: "Alerts",
    role: "admin",
    body: createAlertInput,
    example: { kind: "failed_runs", automationId: null, channel: { type: "email" } },
    ok: { status: 201, description: "The rule (never a secret).", schema: alertRuleShape },
  },
  {
    method: "GET",
    path: ALERT,
    summary: "Read one alert rule",
    tag: "Alerts",
    role: "viewer",
    ok: { status: 200, description: "The rule.", schema: alertRuleShape },
  },
  {
    method: "PUT",
    path: ALERT,
    summary: "Change an alert rule",
    description: "Fields left out keep their value; a webhook channel without `secret` keeps the stored one.",
    tag: "Alerts",
    role: "admin",
    body: updateAlertInput,
    example: { enabled: false },
    ok: { status: 200, description: "The rule (never a secret).", schema: alertRuleShape },
  },
  {
    method: "DELETE",
    path: ALERT,
    summary: "Delete an alert rule",
    description: "Its alerts stay in the history.",
    tag: "Alerts",
    role: "admin",
    ok: { status: 200, description: "`{ id, deleted: true }`." },
  },
  {
    method: "POST",
    path: `${ALERT}/test`,
    summary: "Send a test alert",
    description: "One alert through the rule's channel now, kept in the history like any other.",
    tag: "Alerts",
    role: "admin",
    ok: { status: 202, description: "`{ alertId }`: the history row that will be sent." },
  },
  {
    method: "GET",
    path: "/api/v1/alerts/history",
    summary: "List the alerts sent",
    description:
      "Newest first, keyset-paginated: each alert's automation, sentence, count, runs link, channel and whether it was sent.",
    tag: "Alerts",
    role: "viewer",
    query: alertHistoryQuery,
    ok: {
      status: 200,
      description: "A page of alerts.",
      schema: z.object({ items: z.array(alertHistoryShape), nextCursor: z.string().nullable() }),
    },
  },
  // ── Teams ──────────────────────────────────────────────────────────────────────────────────
  {
    method: "GET",
    path: "/api/v1/teams",
    summary: "List the shop's teams",
    description: "Every team with its members (`userId`, `email`, `name`), by name.",
    tag: "Teams",
    role: "viewer",
    ok: { status: 200, description: "`{ items, nextCursor: null }`." },
  },
  {
    method: "POST",
    path: "/api/v1/teams",
    summary: "Add a team",
    description:
      "A name (unique in the shop) and members among the shop's staff, by user id or email. An Approval step's `approvers` may ask `{ team: <id>, required }`.",
    tag: "Teams",
    role: "admin",
    body: createTeamInput,
    example: { name: "Finance", members: [] },
    ok: { status: 201, description: "The team." },
    errors: [409, 422],
  },
  {
    method: "PUT",
    path: "/api/v1/teams/{id}",
    summary: "Change a team",
    description:
      "A new name, and/or the full list of members (replacing the old one). Taking someone out takes their unused vote away from undecided approvals at once: one that can no longer be approved follows 'Rejected'.",
    tag: "Teams",
    role: "admin",
    body: updateTeamInput,
    example: { members: ["ana@example.com", "bo@example.com"] },
    ok: { status: 200, description: "The team." },
    errors: [409, 422],
  },
  {
    method: "DELETE",
    path: "/api/v1/teams/{id}",
    summary: "Delete a team",
    description: "Undecided approvals that asked it can no longer be approved and follow 'Rejected'.",
    tag: "Teams",
    role: "admin",
    ok: { status: 200, description: "`{ id, deleted: true }`." },
  },
  // ── Meta ───────────────────────────────────────────────────────────────────────────────────
  {
    method: "GET",
    path: "/api/v1/audit",
    summary: "Read the audit log",
    description: "Who published, paused, reverted, decided, … and when, newest first (admins only).",
    tag: "Meta",
    role: "admin",
    query: auditQuery,
    ok: list("A page of audit entries."),
  },
  {
    method: "GET",
    path: "/api/v1/node-types",
    summary: "List the step types (the registry)",
    description: "Each type with its label, category, handles and params as JSON Schema.",
    tag: "Meta",
    role: "viewer",
    ok: {
      status: 200,
      description: "Every step type.",
      schema: z.object({ items: z.array(z.looseObject({ type: z.string() })), nextCursor: z.null() }),
    },
  },
  {
    method: "GET",
    path: "/api/v1/openapi.json",
    summary: "This document",
    description: "OpenAPI 3.1, generated from the schemas the API parses with. Public: no key needed.",
    tag: "Meta",
    role: null,
    ok: { status: 200, description: "The OpenAPI document." },
  },
];
