import { TimesOutIn } from "@/components/approvals/times-out-in";
import { eventWaitFromStep, timedOutText } from "@/lib/automations/nodes/timing/wait-for-event.run";
import { ClockTime } from "./waiting-line";

/**
 * A Wait for event step in a run's timeline: while it waits, "Waiting for Order fulfilled" and
 * when it times out; once over, "Received Order fulfilled at 14:05" (when the event happened, in
 * the shop's zone) or "Timed out: Order fulfilled did not come within 3 days."
 */
export function EventWaitStep({ step }: { step: { status: string; output: unknown } }) {
  const info = eventWaitFromStep(step);
  if (!info) return null;
  return (
    <div className="mt-2 space-y-1 text-sm" data-testid="event-wait-step" data-state={info.state}>
      {info.state === "waiting" ? (
        <>
          <p className="text-zinc-900">
            Waiting for {info.eventName}
            {info.matchText}
          </p>
          {info.timesOutAt && <TimesOutIn value={info.timesOutAt} className="block text-xs text-zinc-600" />}
        </>
      ) : info.state === "received" ? (
        <p className="text-zinc-900">
          <span className="font-medium">Received</span> {info.eventName}
          {info.matchText}
          {info.receivedAt && (
            <>
              {" "}
              at <ClockTime value={info.receivedAt} />
            </>
          )}
          <span className="text-zinc-600">, so the run followed &lsquo;Received&rsquo;.</span>
        </p>
      ) : (
        <p className="text-zinc-900">
          <span className="font-medium">Timed out</span>
          {timedOutText(info).slice("Timed out".length)}
          <span className="text-zinc-600"> The run followed &lsquo;Timed out&rsquo;.</span>
        </p>
      )}
    </div>
  );
}
