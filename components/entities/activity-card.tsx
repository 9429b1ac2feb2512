import Link from "next/link";
import { RunStatusBadge } from "@/components/runs/run-status";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { RelativeTime } from "@/components/ui/relative-time";
import type { ActivityItem } from "@/lib/entities/activity";
import { shortRunId } from "@/lib/automations/runs/short-id";

const linkClass = "font-medium text-indigo-700 underline-offset-2 hover:underline";

/** "run 1a2b3c4d of 'VIP welcome'", linked to the run. */
function ByRun({ item }: { item: ActivityItem }) {
  return (
    <>
      {" — by "}
      <Link href={`/runs/${item.runId}`} className={linkClass}>
        run <span className="font-mono text-xs">{shortRunId(item.runId)}</span>
      </Link>
      {item.automationName ? ` of '${item.automationName}'` : " of a deleted automation"}
    </>
  );
}

function Line({ item }: { item: ActivityItem }) {
  switch (item.kind) {
    case "run":
      return (
        <span className="flex flex-wrap items-center gap-2">
          <RunStatusBadge status={item.status} />
          <Link
            href={`/runs/${item.runId}`}
            className={linkClass}
            aria-label={`Run ${shortRunId(item.runId)} of ${item.automationName ?? "a deleted automation"}`}
          >
            {item.automationName ?? "Deleted automation"}
          </Link>
          <span className="font-mono text-xs text-zinc-500">{item.eventType}</span>
        </span>
      );
    case "tag":
      return (
        <span>
          {item.added ? "Added" : "Removed"} tag {`'${item.tag}'`}
          <ByRun item={item} />
        </span>
      );
    case "note":
      return (
        <span>
          Added a note <q className="text-zinc-900">{item.body}</q>
          <ByRun item={item} />
        </span>
      );
    case "email":
      return (
        <span>
          Email {`'${item.subject}'`} to {item.to} ({item.status})
          <ByRun item={item} />
        </span>
      );
  }
}

/**
 * What automations did about this record: the runs about it, the tags and notes they added and the
 * emails they wrote, newest first, each linked to its run.
 */
export function ActivityCard({ items, limit }: { items: ActivityItem[]; limit?: number }) {
  const runs = items.filter((item) => item.kind === "run").length;
  return (
    <Card>
      <CardHeader
        title="Activity"
        description="Automation runs about this record and what they did, newest first."
      />
      <CardBody>
        {items.length === 0 ? (
          <p className="text-sm text-zinc-500">No automation has run for this record yet.</p>
        ) : (
          <ol className="relative space-y-4 border-l border-zinc-200 pl-5" aria-label="Activity">
            {items.map((item) => (
              <li key={`${item.kind}:${item.id}`} className="relative text-sm" data-testid="activity">
                <span
                  aria-hidden="true"
                  className={`absolute top-1.5 -left-[25px] size-2.5 rounded-full border-2 border-white ${
                    item.kind === "run" ? "bg-indigo-500" : "bg-zinc-400"
                  }`}
                />
                <p className="text-zinc-700">
                  <Line item={item} />
                </p>
                <p className="mt-0.5 text-xs text-zinc-500">
                  <RelativeTime value={item.at} />
                </p>
              </li>
            ))}
          </ol>
        )}
        {limit !== undefined && runs >= limit && (
          <p className="mt-4 text-xs text-zinc-500">Showing the latest {limit} runs.</p>
        )}
      </CardBody>
    </Card>
  );
}
