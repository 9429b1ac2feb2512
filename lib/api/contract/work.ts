import { z } from "zod";
import { graphSchema } from "@/lib/automations/graph/schema";
import { buildInput } from "@/lib/automations/ai/input";
import { outboxQuery } from "@/lib/automations/work/outbox";
import { resubscribeInput } from "@/lib/consent/input";
import { previewInput } from "@/lib/automations/schedules/preview";
import { tasksQuery } from "@/lib/automations/work/tasks";
import { readyIssueShape } from "@/lib/api/shapes";
import type { Endpoint } from "./endpoint";
import { list } from "./shared";

/** Work: tasks, outbox, schedules. */
export const workEndpoints: readonly Endpoint[] = [
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
];
