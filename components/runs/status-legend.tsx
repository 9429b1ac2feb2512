import { Badge } from "@/components/ui/badge";
import { CardBody } from "@/components/ui/card";
import { AWAITING_APPROVAL_INFO, NOTHING_TO_DO_INFO, RUN_STATUS_INFO, RUN_STATUS_VALUES } from "./run-status";

/**
 * Every status in order, with "Awaiting approval" (a kind of waiting) right after Waiting and
 * "Nothing to do" (a succeeded run that took no action) right after Succeeded.
 */
const LEGEND = RUN_STATUS_VALUES.flatMap((status) =>
  status === "waiting"
    ? [RUN_STATUS_INFO[status], AWAITING_APPROVAL_INFO]
    : status === "succeeded"
      ? [RUN_STATUS_INFO[status], NOTHING_TO_DO_INFO]
      : [RUN_STATUS_INFO[status]],
);

/** What each run status means, with its badge: taught where run history is still empty. */
export function StatusLegend() {
  return (
    <CardBody className="border-t border-zinc-200 bg-zinc-50/60 px-6 py-6">
      <h2 className="mb-3 text-sm font-semibold text-zinc-900">What a run&apos;s status tells you</h2>
      <dl className="space-y-3">
        {LEGEND.map((info) => (
          <div key={info.label} className="flex items-start gap-3">
            <dt className="w-36 shrink-0">
              <Badge tone={info.tone} dot>
                {info.label}
              </Badge>
            </dt>
            <dd className="text-sm text-zinc-600">{info.meaning}</dd>
          </div>
        ))}
      </dl>
    </CardBody>
  );
}
