import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { RelativeTime } from "@/components/ui/relative-time";

export interface EventView {
  id: string;
  type: string;
  payload: Record<string, unknown>;
  createdAt: string;
}

function describe(event: EventView, label: (status: string) => string): string | null {
  const { from, to } = event.payload;
  if (event.type.endsWith(".status_changed") && typeof to === "string") {
    return typeof from === "string" ? `From ${label(from)} to ${label(to)}` : `To ${label(to)}`;
  }
  if (event.type.endsWith(".created") && typeof event.payload.status === "string") {
    return `Created as ${label(event.payload.status)}`;
  }
  return null;
}

/**
 * What happened to a record, newest first. These are the events automations trigger on, so the
 * type is shown as automations name it (`order.status_changed`).
 */
export function EventHistory({
  events,
  statusLabel = (s) => s,
  limit,
}: {
  events: EventView[];
  statusLabel?: (status: string) => string;
  /** The most the query returned; when reached, the card says older events are not shown. */
  limit?: number;
}) {
  return (
    <Card>
      <CardHeader title="History" description="Events recorded for this record, newest first." />
      <CardBody>
        {events.length === 0 ? (
          <p className="text-sm text-zinc-500">No events recorded yet.</p>
        ) : (
          <ol className="relative space-y-4 border-l border-zinc-200 pl-5" aria-label="Events">
            {events.map((event) => {
              const detail = describe(event, statusLabel);
              return (
                <li key={event.id} className="relative text-sm" data-testid="event">
                  <span
                    aria-hidden="true"
                    className="absolute top-1.5 -left-[25px] size-2.5 rounded-full border-2 border-white bg-zinc-400"
                  />
                  <p className="font-mono text-xs font-medium text-zinc-900">{event.type}</p>
                  {detail && <p className="mt-0.5 text-zinc-700">{detail}</p>}
                  <p className="mt-0.5 text-xs text-zinc-500">
                    <RelativeTime value={event.createdAt} />
                  </p>
                </li>
              );
            })}
          </ol>
        )}
        {limit !== undefined && events.length >= limit && (
          <p className="mt-4 text-xs text-zinc-500">Showing the latest {limit} events.</p>
        )}
      </CardBody>
    </Card>
  );
}
