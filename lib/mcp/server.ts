import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { limitApiKey } from "@/lib/rate-limit/api";
import { assertRole, type Caller } from "@/lib/identity/caller";
import { decideApproval, decisionInput } from "@/lib/automations/waits/approvals";
import { automationImpact } from "@/lib/automations/lifecycle/impact";
import { laterSteps } from "@/lib/automations/runs/later-then";
import { runForRecord, runForRecordInput } from "@/lib/automations/runs/for-record";
import { getRun } from "@/lib/automations/runs/detail";
import { listRuns, runsQuery } from "@/lib/automations/runs/history";
import { draftInput, saveDraft } from "@/lib/automations/lifecycle/save-draft";
import { getAutomation } from "@/lib/automations/lifecycle/read";
import { keepBranchInput, sendEveryoneDownBranch } from "@/lib/automations/lifecycle/keep-branch";
import { listAutomations, listQuery } from "@/lib/automations/lifecycle/list";
import { publishAutomation, publishInput } from "@/lib/automations/lifecycle/publish";
import { setActive } from "@/lib/automations/lifecycle/set-active";
import { brakeImpact, brakeState, engageBrake, releaseBrake } from "@/lib/automations/brake/brake";
import { tryLater, tryLaterInput } from "@/lib/automations/runs/try-later";
import { cancelWaitById, listWaiting, waitingByNode, waitingQuery } from "@/lib/automations/waits/waits";
import { AppError, isUuid, notFound } from "@/lib/errors";
import { createTeam, deleteTeam, listTeams, updateTeam, updateTeamInput } from "@/lib/teams/teams";
import { messageCounts, messageCountsQuery } from "@/lib/automations/insights/messages";
import { automationPerformance, performanceFields } from "@/lib/automations/performance/report";
import { log } from "@/lib/log/logger";
import { forRole } from "@/lib/automations/nodes/editor-only";
import type { Role } from "@/lib/identity/roles";

/**
 * The MCP server (SPEC §4 `POST /api/mcp`): the tools an assistant uses to read and change a
 * shop's automations, each calling the same service function as the REST route that does the same
 * thing, with the zod schema that function parses with as its input schema. The caller (an API
 * key) is fixed per request: its shop scopes every read (another shop's ids are "not found") and
 * its role every change (a viewer reads, an editor writes), with the REST API's messages.
 */

const id = z.string().max(200).describe("The id, as the REST API and the app's URLs show it.");

/** Write tools: the REST routes' editor role and the API key's per-minute write limit. */
async function mayWrite(caller: Caller): Promise<void> {
  assertRole(caller, "editor");
  if (caller.actor.kind === "api_key") await limitApiKey(caller.actor.apiKeyId, "write");
}

/** A tool's reply to a caller of `role`: the result as JSON text and as structured content, or an AppError's sentence. */
async function replyAs(role: Role, work: () => Promise<unknown>): Promise<CallToolResult> {
  try {
    // Viewers are answered without editor-only params (a webhook trigger's address).
    const text = JSON.stringify(forRole(await work(), role));
    return {
      content: [{ type: "text", text }],
      structuredContent: JSON.parse(text) as Record<string, unknown>,
    };
  } catch (error) {
    if (error instanceof AppError) {
      const body = {
        error: {
          code: error.code,
          message: error.message,
          ...(error.issues ? { issues: error.issues } : {}),
        },
      };
      return { isError: true, content: [{ type: "text", text: error.message }], structuredContent: body };
    }
    log().error({ err: error }, "Unhandled error in an MCP tool");
    return {
      isError: true,
      content: [{ type: "text", text: "Something went wrong on our side. It has been logged." }],
    };
  }
}

export const updateAutomationInput = draftInput.extend({
  id,
  action: z
    .enum(["publish", "pause", "activate"])
    .optional()
    .describe("Done after the draft is saved: publish the draft as the next version, pause, or activate."),
  note: publishInput.shape.note.describe("With action 'publish': the version's note."),
});

export const runAutomationInput = z
  .strictObject({
    automationId: id,
    entity: runForRecordInput
      .optional()
      .describe("Run it for this stored record, as its trigger's event would."),
    later: tryLaterInput
      .optional()
      .describe("Run its Later trigger for this step now, as if it had come due."),
  })
  .refine((input) => (input.entity === undefined) !== (input.later === undefined), {
    message: "give either 'entity' or 'later', not both",
  });

const DRAFT_FIELDS = ["graph", "name", "description", "inFlightPolicy", "baseRevision"] as const;

async function updateAutomation(caller: Caller, input: z.output<typeof updateAutomationInput>) {
  await mayWrite(caller);
  const draft = Object.fromEntries(
    DRAFT_FIELDS.filter((k) => input[k] !== undefined).map((k) => [k, input[k]]),
  );
  const saved = Object.keys(draft).length > 0 ? await saveDraft(caller, input.id, draft) : null;
  if (input.action === "publish") {
    const { automation, published, impact } = await publishAutomation(caller, input.id, { note: input.note });
    return { automation, published, impact };
  }
  if (input.action === "pause" || input.action === "activate") {
    return setActive(caller, input.id, input.action === "activate");
  }
  // Only the draft changed: say what publishing it would do to the runs waiting now, before anyone does.
  const automation = saved ?? (await getAutomation(caller.tenant.id, input.id));
  return { automation, publishImpact: await automationImpact(caller.tenant.id, input.id, "publish") };
}

/** A new MCP server for one request's caller (stateless: nothing outlives the request). */
export function createMcpServer(caller: Caller): McpServer {
  const server = new McpServer({ name: "tillflow", version: "1.0.0" });
  const tenantId = caller.tenant.id;
  const reply = (work: () => Promise<unknown>) => replyAs(caller.role, work);

  server.registerTool(
    "list_automations",
    {
      description: "The shop's automations, most recently changed first (as GET /api/v1/automations).",
      inputSchema: listQuery,
      annotations: { readOnlyHint: true },
    },
    (args) => reply(() => listAutomations(tenantId, args)),
  );
  server.registerTool(
    "get_automation",
    {
      description:
        "One automation: its draft and active graphs, status, version, ready issues, how many runs are waiting, and its Later steps.",
      inputSchema: z.strictObject({ id }),
      annotations: { readOnlyHint: true },
    },
    ({ id: automationId }) =>
      reply(async () => {
        const automation = await getAutomation(tenantId, automationId);
        const waiting = await waitingByNode(automation.id);
        return {
          ...automation,
          waitingRuns: waiting.reduce((sum, w) => sum + w.count, 0),
          laterSteps: laterSteps(automation.activeGraph),
        };
      }),
  );
  server.registerTool(
    "update_automation",
    {
      description:
        "Saves an automation's draft (graph, name, in-flight policy) and/or publishes, pauses or activates it. The reply says what that does to the runs waiting now (impact).",
      inputSchema: updateAutomationInput,
    },
    (args) => reply(() => updateAutomation(caller, args)),
  );
  server.registerTool(
    "automation_messages",
    {
      description:
        "An automation's messages in the last 7 or 30 days: sent, and marketing ones skipped because the customer does not accept marketing or unsubscribed (as GET /api/v1/automations/{id}/messages).",
      inputSchema: messageCountsQuery.extend({ id }),
      annotations: { readOnlyHint: true },
    },
    ({ id: automationId, ...query }) =>
      reply(async () => {
        if (!isUuid(automationId)) throw notFound("That automation");
        return messageCounts(tenantId, automationId, query);
      }),
  );
  server.registerTool(
    "automation_performance",
    {
      description:
        "Does it pay: an automation's conversions, attributed revenue (a decimal string in `currency`), revenue per recipient, by day, step, version and split branch, and the holdout comparison with 95 % intervals, in shop days from–to (default the last 30) — as GET /api/v1/automations/{id}/performance.",
      inputSchema: performanceFields.extend({ id }),
      annotations: { readOnlyHint: true },
    },
    ({ id: automationId, ...query }) => reply(() => automationPerformance(tenantId, automationId, query)),
  );
  server.registerTool(
    "send_down_branch",
    {
      description:
        "Send everyone down the winner: saves a draft of the automation in which the split step `splitId` is replaced by its branch `branch`, to review and publish as usual (as POST /api/v1/automations/{id}/splits/{stepId}/send-down). Returns the automation with its new draft.",
      inputSchema: keepBranchInput.extend({ id }),
    },
    ({ id: automationId, ...body }) =>
      reply(async () => {
        await mayWrite(caller);
        return sendEveryoneDownBranch(caller, automationId, body);
      }),
  );
  server.registerTool(
    "list_runs",
    {
      description:
        "Runs, newest first, filtered by automation, status, record or time (as GET /api/v1/runs).",
      inputSchema: runsQuery,
      annotations: { readOnlyHint: true },
    },
    (args) => reply(() => listRuns(tenantId, args)),
  );
  server.registerTool(
    "get_run",
    {
      description:
        "One run: its event, every step of every leg (a condition step with `why`: what it read and compared it with), and its waits.",
      inputSchema: z.strictObject({ id }),
      annotations: { readOnlyHint: true },
    },
    ({ id: runId }) => reply(() => getRun(tenantId, runId)),
  );
  server.registerTool(
    "list_waiting",
    {
      description:
        "An automation's pending waits and later steps, soonest first, and the ones recently dropped.",
      inputSchema: waitingQuery.extend({ automationId: id }),
      annotations: { readOnlyHint: true },
    },
    ({ automationId, ...query }) => reply(() => listWaiting(tenantId, automationId, query)),
  );
  server.registerTool(
    "cancel_wait",
    {
      description: "Cancels one pending wait or later step: what follows it will not run.",
      inputSchema: z.strictObject({ waitId: id }),
      annotations: { destructiveHint: true },
    },
    ({ waitId }) =>
      reply(async () => {
        await mayWrite(caller);
        return cancelWaitById(caller, waitId);
      }),
  );
  server.registerTool(
    "run_automation",
    {
      description:
        "Starts a real run of an active automation now: for a stored record ({entity: {domain, id}}), or at its Later trigger for a step ({later: {step, then?}}), as if that later step had come due.",
      inputSchema: runAutomationInput,
    },
    ({ automationId, entity, later }) =>
      reply(async () => {
        await mayWrite(caller);
        return entity ? runForRecord(caller, automationId, entity) : tryLater(caller, automationId, later);
      }),
  );
  server.registerTool(
    "decide_approval",
    {
      description:
        "Votes to approve or reject a run waiting at an approval step, with an optional note: one vote per person, however it arrives; the approval is decided when its quorum is met (or rejected per its rule). The reply lists the votes and who is still needed.",
      inputSchema: decisionInput.extend({ waitId: id }),
    },
    ({ waitId, ...decision }) =>
      reply(async () => {
        await mayWrite(caller);
        return decideApproval(caller, waitId, decision);
      }),
  );
  server.registerTool(
    "list_teams",
    {
      description:
        "The shop's teams (as GET /api/v1/teams): each a name and members, which an approval's quorum may ask.",
      inputSchema: z.strictObject({}),
      annotations: { readOnlyHint: true },
    },
    () => reply(async () => ({ items: await listTeams(tenantId), nextCursor: null })),
  );
  server.registerTool(
    "save_team",
    {
      description:
        "Adds a team (no id: a name and members by user id or email) or changes one (id, and a new name and/or the full list of members). Admins only; taking someone out takes their unused vote away from waiting approvals.",
      inputSchema: updateTeamInput.extend({ id: id.optional() }),
    },
    ({ id: teamId, ...input }) =>
      reply(async () => {
        await mayWrite(caller);
        return teamId ? updateTeam(caller, teamId, input) : createTeam(caller, input);
      }),
  );
  server.registerTool(
    "delete_team",
    {
      description: "Deletes a team (admins only); waiting approvals that asked it follow 'Rejected'.",
      inputSchema: z.strictObject({ id }),
    },
    ({ id: teamId }) =>
      reply(async () => {
        await mayWrite(caller);
        return deleteTeam(caller, teamId);
      }),
  );
  server.registerTool(
    "get_brake",
    {
      description:
        "The emergency brake: whether it is on (and who pulled it when), and what pulling it now would pause and hold.",
      inputSchema: z.strictObject({}),
      annotations: { readOnlyHint: true },
    },
    () => reply(async () => ({ brake: await brakeState(tenantId), impact: await brakeImpact(tenantId) })),
  );
  server.registerTool(
    "pause_all_automations",
    {
      description:
        "The emergency brake (admins): pauses every active automation of the shop at once; schedules stop firing and waiting runs hold until resume_all_automations, which resumes exactly these.",
      inputSchema: z.strictObject({}),
      annotations: { destructiveHint: true },
    },
    () =>
      reply(async () => {
        await mayWrite(caller);
        return engageBrake(caller);
      }),
  );
  server.registerTool(
    "resume_all_automations",
    {
      description:
        "Releases the emergency brake (admins): activates exactly the automations it paused and resumes the runs that fell due meanwhile, in order, once each.",
      inputSchema: z.strictObject({}),
    },
    () =>
      reply(async () => {
        await mayWrite(caller);
        return releaseBrake(caller);
      }),
  );
  return server;
}
