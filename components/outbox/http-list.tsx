import { Badge, type BadgeTone } from "@/components/ui/badge";
import { RelativeTime } from "@/components/ui/relative-time";
import { JsonBlock } from "@/components/runs/json-block";
import { RunLink } from "@/components/runs/run-link";

export interface HttpDelivery {
  id: string;
  runId: string;
  nodeId: string;
  idempotencyKey: string;
  status: string;
  request: Record<string, unknown>;
  response: Record<string, unknown> | null;
  error: string | null;
  attempts: number;
  createdAt: string;
  completedAt: string | null;
}

const STATUS: Record<string, { label: string; tone: BadgeTone }> = {
  sending: { label: "Sending", tone: "info" },
  delivered: { label: "Delivered", tone: "success" },
  failed: { label: "Failed", tone: "danger" },
};

/** HTTP requests made by flows, with the Idempotency-Key each carried and what the receiver answered. */
export function HttpList({ items }: { items: HttpDelivery[] }) {
  return (
    <ul className="divide-y divide-zinc-100" aria-label="HTTP deliveries">
      {items.map((d) => {
        const status = STATUS[d.status] ?? { label: d.status, tone: "neutral" as const };
        const method = typeof d.request.method === "string" ? d.request.method : "POST";
        const url = typeof d.request.url === "string" ? d.request.url : "";
        const code = typeof d.response?.status === "number" ? d.response.status : null;
        return (
          <li key={d.id} className="px-5 py-4" data-testid="outbox-http">
            <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
              <span className="font-mono text-xs font-semibold text-zinc-700">{method}</span>
              <span className="min-w-0 font-mono text-sm break-all text-zinc-900">{url}</span>
              <Badge tone={status.tone} dot>
                {status.label}
              </Badge>
              {code !== null && <span className="text-sm text-zinc-600">answered {code}</span>}
              <span className="ml-auto text-xs text-zinc-500">
                <RelativeTime value={d.createdAt} />
              </span>
            </div>
            <dl className="mt-2 grid gap-x-6 gap-y-1 text-xs text-zinc-600 sm:grid-cols-[auto_1fr]">
              <dt className="font-medium">Idempotency-Key</dt>
              <dd className="font-mono break-all text-zinc-800">{d.idempotencyKey}</dd>
              <dt className="font-medium">Attempts</dt>
              <dd>
                {d.attempts}
                {d.attempts > 1 && " (re-sent with the same key after an interrupted attempt)"}
              </dd>
              <dt className="font-medium">Run</dt>
              <dd>
                <RunLink runId={d.runId} /> step <span className="font-mono">{d.nodeId}</span>
              </dd>
            </dl>
            {d.error && <p className="mt-2 text-sm text-red-700">{d.error}</p>}
            <JsonBlock label="Request" value={d.request} />
            <JsonBlock label="Response" value={d.response} />
          </li>
        );
      })}
    </ul>
  );
}
