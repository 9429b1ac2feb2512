"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { ConfirmButton } from "@/components/ui/confirm-dialog";
import { EmptyState } from "@/components/ui/empty-state";
import { RelativeTime } from "@/components/ui/relative-time";
import { TBody, TD, TH, THead, TR, Table } from "@/components/ui/table";
import { useServerAction, type ServerAnswer } from "@/components/ui/hooks/use-server-action";
import { settleHeldRunAction, settleHeldRunsAction } from "@/lib/actions/runs/held";
import { shortRunId } from "@/lib/automations/runs/short-id";
import { EntityLink } from "./entity-link";
import { fetchJson, POLL_MS } from "./fetch-json";
import { LiveStatus } from "./live-status";
import type { RunsPage } from "./runs-table";

/**
 * An automation's Held list: the runs its caps held, oldest first, each released (it starts now,
 * exactly once) or discarded by an editor, one by one or all together. Kept live by polling.
 */
export function HeldRuns({
  automationId,
  name,
  initial,
  canEdit,
}: {
  automationId: string;
  name: string;
  initial: RunsPage;
  canEdit: boolean;
}) {
  const apiQuery = `status=held&automationId=${automationId}&limit=100`;
  const queryClient = useQueryClient();
  const { data, error } = useQuery({
    queryKey: ["runs", apiQuery],
    queryFn: () => fetchJson<RunsPage>(`/api/v1/runs?${apiQuery}`),
    initialData: initial,
    refetchInterval: POLL_MS,
  });
  const settleOne = useServerAction(settleHeldRunAction);
  const settleAll = useServerAction(settleHeldRunsAction);
  const pending = settleOne.pending || settleAll.pending;
  const [message, setMessage] = useState<{ error: boolean; text: string } | null>(null);

  const then = async (result: ServerAnswer<{ impact: string }>) => {
    setMessage(result.ok ? { error: false, text: result.data.impact } : { error: true, text: result.error });
    await queryClient.invalidateQueries({ queryKey: ["runs"] });
  };

  const items = [...data.items].reverse();
  return (
    <section aria-labelledby="held-heading">
      <div className="flex flex-wrap items-center justify-between gap-3 px-5 py-4">
        <div>
          <h2 id="held-heading" className="text-base font-semibold text-zinc-900">
            Held runs
          </h2>
          <p className="text-sm text-zinc-600">
            Runs a cap stopped before they started. Release one to start it now, or discard it.
          </p>
        </div>
        {canEdit && items.length > 0 && (
          <div className="flex gap-2">
            <Button
              variant="secondary"
              disabled={pending}
              onClick={() => settleAll.run({ automationId, verb: "release" }, then)}
            >
              Release all
            </Button>
            <ConfirmButton
              label="Discard all"
              ariaLabel={`Discard all held runs of ${name}`}
              title={`Discard every held run of '${name}'?`}
              confirmLabel="Discard them"
              dismissLabel="Keep them held"
              variant="danger-outline"
              size="md"
              pending={pending}
              onConfirm={() => settleAll.run({ automationId, verb: "discard" }, then)}
            >
              <p>
                They will never start; each is kept in the run history as cancelled, with who discarded it.
              </p>
            </ConfirmButton>
          </div>
        )}
      </div>
      <p
        role="status"
        className={message?.error ? "px-5 pb-3 text-sm text-red-700" : "px-5 pb-3 text-sm text-zinc-700"}
      >
        {message?.text}
      </p>
      {items.length === 0 ? (
        <EmptyState title="No runs are held">
          <p>
            When a run would pass one of this automation&apos;s caps, it waits here instead of starting, so a
            storm of events never reaches your customers. Set the caps above.
          </p>
        </EmptyState>
      ) : (
        <Table caption="Held runs">
          <THead>
            <TR>
              <TH>Run</TH>
              <TH>Record</TH>
              <TH>Held</TH>
              <TH>Why</TH>
              {canEdit && <TH align="right">Actions</TH>}
            </TR>
          </THead>
          <TBody>
            {items.map((run) => (
              <TR key={run.id} data-testid="held-row">
                <TD className="whitespace-nowrap">
                  <Link
                    href={`/runs/${run.id}`}
                    className="font-mono text-xs font-medium text-zinc-900 underline-offset-2 hover:underline"
                    aria-label={`Run ${shortRunId(run.id)}`}
                  >
                    {shortRunId(run.id)}
                  </Link>
                </TD>
                <TD className="max-w-48">
                  <EntityLink domain={run.domain} id={run.entityId} label={run.entityLabel ?? undefined} />
                </TD>
                <TD className="whitespace-nowrap text-zinc-700">
                  <RelativeTime value={run.createdAt} stacked />
                </TD>
                <TD className="max-w-80 text-sm break-words text-zinc-700">{run.reason}</TD>
                {canEdit && (
                  <TD align="right" className="whitespace-nowrap">
                    <div className="flex justify-end gap-2">
                      <Button
                        size="sm"
                        variant="secondary"
                        disabled={pending}
                        aria-label={`Release run ${shortRunId(run.id)}`}
                        onClick={() => settleOne.run({ runId: run.id, verb: "release" }, then)}
                      >
                        Release
                      </Button>
                      <Button
                        size="sm"
                        variant="ghost"
                        disabled={pending}
                        aria-label={`Discard run ${shortRunId(run.id)}`}
                        onClick={() => settleOne.run({ runId: run.id, verb: "discard" }, then)}
                      >
                        Discard
                      </Button>
                    </div>
                  </TD>
                )}
              </TR>
            ))}
          </TBody>
        </Table>
      )}
      <LiveStatus error={error} />
    </section>
  );
}
