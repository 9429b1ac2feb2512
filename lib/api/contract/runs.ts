import { z } from "zod";
import { bulkRerunInput, MAX_BULK_RERUN, rerunInput } from "@/lib/automations/runs/rerun";
import { runsQuery } from "@/lib/automations/runs/history";
import { heldFilter, MAX_BULK_HELD } from "@/lib/automations/runs/held";
import { runListShape, runShape } from "@/lib/api/shapes";
import type { Endpoint } from "./endpoint";

const heldOutcomeShape = z.object({ runIds: z.array(z.uuid()), impact: z.string() });

/** Runs. */
export const runsEndpoints: readonly Endpoint[] = [
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
];
