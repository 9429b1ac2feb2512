import { z } from "zod";
import { dryRunInput } from "@/lib/automations/dry-run/dry-run";
import { backtestInput } from "@/lib/automations/backtest/backtest";
import { messageCountsQuery } from "@/lib/automations/insights/messages";
import { performanceQuery } from "@/lib/automations/performance/report";
import { attributionInput } from "@/lib/automations/performance/settings";
import { holdoutInput } from "@/lib/automations/lifecycle/set-holdout";
import { sendDownInput } from "@/lib/automations/lifecycle/keep-branch";
import { capsInput } from "@/lib/automations/caps/caps";
import { automationMessagingInput, messagingInput } from "@/lib/messaging/settings";
import { firesQuery, runNowInput } from "@/lib/automations/schedules/manage";
import { createInput } from "@/lib/automations/lifecycle/create";
import { draftInput } from "@/lib/automations/lifecycle/save-draft";
import { listQuery } from "@/lib/automations/lifecycle/list";
import { publishInput } from "@/lib/automations/lifecycle/publish";
import { revertInput } from "@/lib/automations/lifecycle/versions";
import { tryLaterInput } from "@/lib/automations/runs/try-later";
import { waitingQuery } from "@/lib/automations/waits/waits";
import {
  automationChangeShape,
  automationListShape,
  automationShape,
  publishShape,
  runShape,
  backtestShape,
  waitListShape,
} from "@/lib/api/shapes";
import type { Endpoint } from "./endpoint";
import { list, cancelled } from "./shared";

const automation = { status: 200, description: "The automation.", schema: automationShape } as const;

const change = {
  status: 200,
  description: "The automation, and what the change did to the runs waiting now.",
  schema: automationChangeShape,
} as const;

const A = "/api/v1/automations/{id}";

/** Automations. */
export const automationsEndpoints: readonly Endpoint[] = [
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
    method: "POST",
    path: `${A}/splits/{stepId}/send-down`,
    summary: "Send everyone down one branch of a split",
    description:
      "`{ branch }`: saves a draft in which the split step `stepId` is replaced by that branch (the winner, usually), to review and publish as usual; the in-flight policy then applies to runs waiting inside the other branches. Starts from the draft when it still has the split, else from the published version. A split or branch the automation does not have is a 422.",
    tag: "Automations",
    role: "editor",
    body: sendDownInput,
    example: { branch: "b" },
    ok: automation,
    errors: [409, 422],
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
];
