"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useId, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { useServerAction } from "@/components/ui/hooks/use-server-action";
import {
  bulkRerunImpactAction,
  rerunImpactAction,
  rerunRunAction,
  rerunRunsAction,
} from "@/lib/actions/runs/rerun";
import type { RerunFrom } from "@/lib/automations/runs/rerunnable";

/** What the dialog re-runs: one run, or the runs a filter of the runs list picks. */
export type RerunTarget =
  | { kind: "run"; runId: string; failedStep: string | null }
  | {
      kind: "filter";
      automationId?: string;
      status?: "failed" | "partial" | "cancelled";
      platform?: "mine" | "builtin" | "all";
    };

/**
 * "Re-run…": a native modal `<dialog>` (as `ConfirmButton`'s: focus moves in, Escape cancels) that
 * says what a re-run will do before it is confirmed — read from the server for the choice made —
 * and refuses with the server's sentence when it cannot be done. Editors and admins only.
 */
export function RerunButton({ target }: { target: RerunTarget }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const dialog = useRef<HTMLDialogElement>(null);
  const ids = { title: useId(), impact: useId() };
  const [from, setFrom] = useState<RerunFrom>("start");
  const [impact, setImpact] = useState<{ ok: boolean; text: string } | null>(null);
  const rerunImpact = useServerAction(rerunImpactAction);
  const bulkRerunImpact = useServerAction(bulkRerunImpactAction);
  const rerunRun = useServerAction(rerunRunAction);
  const rerunRuns = useServerAction(rerunRunsAction);
  const pending = rerunImpact.pending || bulkRerunImpact.pending || rerunRun.pending || rerunRuns.pending;
  const canFromStep = target.kind === "filter" || target.failedStep !== null;

  function read(choice: RerunFrom) {
    setFrom(choice);
    setImpact(null);
    if (target.kind === "run")
      rerunImpact.run({ runId: target.runId, from: choice }, (result) =>
        setImpact(result.ok ? { ok: true, text: result.data.impact } : { ok: false, text: result.error }),
      );
    else {
      const { automationId, status, platform } = target;
      bulkRerunImpact.run({ automationId, status, platform, from: choice }, (result) =>
        setImpact(
          result.ok
            ? { ok: result.data.count > 0, text: result.data.impact }
            : { ok: false, text: result.error },
        ),
      );
    }
  }

  function confirm() {
    if (target.kind === "run")
      rerunRun.run({ runId: target.runId, from }, async (result) => {
        if (!result.ok) return setImpact({ ok: false, text: result.error });
        dialog.current?.close();
        // The old run now lists its re-run: what this page polled of it is out of date.
        await queryClient.invalidateQueries({ queryKey: ["run", target.runId] });
        router.push(`/runs/${result.data.runId}`);
      });
    else
      rerunRuns.run(
        { automationId: target.automationId, status: target.status, platform: target.platform, from },
        (result) => {
          if (!result.ok) return setImpact({ ok: false, text: result.error });
          dialog.current?.close();
          router.refresh();
        },
      );
  }

  const label = target.kind === "run" ? "Re-run…" : "Re-run these runs…";
  return (
    <>
      <Button
        size="sm"
        onClick={() => {
          read("start");
          dialog.current?.showModal();
        }}
      >
        {label}
      </Button>
      <dialog
        ref={dialog}
        aria-labelledby={ids.title}
        aria-describedby={ids.impact}
        className="m-auto w-[calc(100%-2rem)] max-w-md rounded-xl border border-zinc-200 bg-white p-0 text-left text-zinc-900 shadow-xl"
      >
        <form method="dialog" className="space-y-4 p-6">
          <h2 id={ids.title} className="text-base font-semibold">
            {target.kind === "run" ? "Re-run this run" : "Re-run the runs listed"}
          </h2>
          <fieldset className="space-y-2 text-sm">
            <legend className="sr-only">Where the new run starts</legend>
            <label className="flex items-start gap-2">
              <input
                type="radio"
                name="from"
                className="mt-1"
                checked={from === "start"}
                onChange={() => read("start")}
              />
              <span>From the start</span>
            </label>
            <label className={`flex items-start gap-2 ${canFromStep ? "" : "text-zinc-400"}`}>
              <input
                type="radio"
                name="from"
                className="mt-1"
                disabled={!canFromStep}
                checked={from === "failed_step"}
                onChange={() => read("failed_step")}
              />
              <span>
                {target.kind === "filter"
                  ? "From the step each failed at"
                  : target.failedStep
                    ? `From the failed step, '${target.failedStep}'`
                    : "From the failed step (no step failed in this run)"}
              </span>
            </label>
          </fieldset>
          <p
            id={ids.impact}
            role="status"
            className={`min-h-12 text-sm leading-6 ${impact && !impact.ok ? "text-red-700" : "text-zinc-600"}`}
          >
            {impact ? impact.text : "Reading what it would do…"}
          </p>
          <div className="flex justify-end gap-3">
            <Button type="submit" value="cancel" autoFocus>
              Cancel
            </Button>
            <Button
              type="button"
              variant="primary"
              pending={pending}
              disabled={!impact?.ok}
              onClick={confirm}
            >
              Re-run
            </Button>
          </div>
        </form>
      </dialog>
    </>
  );
}
