import { ReleaseBrakeButton } from "@/components/automations/brake-controls";
import type { BrakeState } from "@/lib/automations/brake/brake";
import { formatInZone } from "@/lib/time/cron";

/**
 * Shown above every admin page while the shop's emergency brake is on: who pulled it, when, what
 * it holds, and (for admins) the way to release it.
 */
export function BrakeBanner({
  brake,
  canRelease,
  timeZone,
}: {
  brake: BrakeState;
  canRelease: boolean;
  timeZone: string;
}) {
  if (!brake.on) return null;
  const count = brake.automations === 1 ? "1 automation is" : `${brake.automations} automations are`;
  return (
    <section
      aria-label="Emergency brake"
      data-testid="brake-banner"
      className="border-b border-amber-300 bg-amber-50 px-4 py-3 sm:px-8"
    >
      <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-amber-950">
          <strong className="font-semibold">The emergency brake is on.</strong> {count} paused
          {brake.engagedBy ? ` by ${brake.engagedBy}` : ""}
          {brake.engagedAt ? ` since ${formatInZone(new Date(brake.engagedAt), timeZone)}` : ""}: schedules do
          not fire and waiting runs hold until it is released.
        </p>
        {canRelease && <ReleaseBrakeButton />}
      </div>
    </section>
  );
}
