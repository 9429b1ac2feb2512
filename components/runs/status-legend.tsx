import { Badge } from "@/components/ui/badge";
import { CardBody } from "@/components/ui/card";
import { RUN_STATUS_INFO, RUN_STATUS_VALUES } from "./run-status";

/** What each run status means, with its badge: taught where run history is still empty. */
export function StatusLegend() {
  return (
    <CardBody className="border-t border-zinc-200 bg-zinc-50/60 px-6 py-6">
      <h2 className="mb-3 text-sm font-semibold text-zinc-900">What a run&apos;s status tells you</h2>
      <dl className="space-y-3">
        {RUN_STATUS_VALUES.map((status) => (
          <div key={status} className="flex items-start gap-3">
            <dt className="w-24 shrink-0">
              <Badge tone={RUN_STATUS_INFO[status].tone} dot>
                {RUN_STATUS_INFO[status].label}
              </Badge>
            </dt>
            <dd className="text-sm text-zinc-600">{RUN_STATUS_INFO[status].meaning}</dd>
          </div>
        ))}
      </dl>
    </CardBody>
  );
}
