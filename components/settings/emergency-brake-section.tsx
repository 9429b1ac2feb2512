import { PullBrakeButton } from "@/components/automations/brake-controls";
import { Card, CardBody, CardHeader } from "@/components/ui/card";

/**
 * Settings → Shop → Emergency brake: one switch that pauses every automation at once, for an
 * incident (a bad import, a broken template mailing every customer). Admins only; others read
 * what it is. While it is on, the banner above every page releases it.
 */
export function EmergencyBrakeSection({ on, canManage }: { on: boolean; canManage: boolean }) {
  return (
    <Card>
      <CardHeader
        title="Emergency brake"
        description="Pauses every active automation of the shop at once. Schedules stop firing and waiting runs hold, not cancelled; releasing the brake turns back on exactly the automations it paused."
      />
      <CardBody>
        {on ? (
          <p className="text-sm text-zinc-700">
            The brake is on: release it from the banner at the top of the page.
          </p>
        ) : canManage ? (
          <PullBrakeButton />
        ) : (
          <p className="text-sm text-zinc-600">Only an admin can pull the brake.</p>
        )}
      </CardBody>
    </Card>
  );
}
