import Link from "next/link";
import { Card, CardHeader } from "@/components/ui/card";
import { DescriptionList } from "@/components/ui/description-list";
import { RelativeTime } from "@/components/ui/relative-time";
import type { RunEvent } from "@/lib/db/schema";

/**
 * What a run started by a later step was handed back (`then`), which step it was, when it was
 * due, and who asked for it: the run that asked, or the person who tried it now. Null for any
 * other run.
 */
export function HandedBack({ event }: { event: RunEvent }) {
  if (event.type !== "later") return null;
  const { step, then, due, fromRunId, tried, key } = event.payload;
  return (
    <Card>
      <CardHeader
        title="Handed back"
        description="This run was started by a later step; it reads this as {event.then.…}."
      />
      <div className="space-y-4 px-5 py-4">
        <DescriptionList
          columns={1}
          items={[
            { term: "Step", detail: <span className="font-mono text-xs">{String(step)}</span> },
            ...(typeof due === "string" ? [{ term: "Due", detail: <RelativeTime value={due} /> }] : []),
            ...(typeof key === "string"
              ? [{ term: "Key", detail: <span className="font-mono text-xs">{key}</span> }]
              : []),
            {
              term: "Asked for by",
              detail:
                typeof fromRunId === "string" ? (
                  <Link href={`/runs/${fromRunId}`} className="underline-offset-2 hover:underline">
                    an earlier run
                  </Link>
                ) : typeof tried === "string" ? (
                  `${tried}, with Try it later…`
                ) : (
                  "—"
                ),
            },
          ]}
        />
        <pre
          data-testid="handed-back-then"
          aria-label="then"
          className="max-h-80 overflow-auto rounded-lg bg-zinc-50 p-3 font-mono text-xs text-zinc-800"
        >
          {JSON.stringify(then ?? {}, null, 2)}
        </pre>
      </div>
    </Card>
  );
}
