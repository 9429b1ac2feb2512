"use client";

import { useState } from "react";
import { ConfirmButton } from "@/components/ui/confirm-dialog";
import { Notice } from "@/components/ui/notice";
import { useServerAction } from "@/components/ui/hooks/use-server-action";
import { getBrakeImpactAction, pullBrakeAction, releaseBrakeAction } from "@/lib/actions/automations/brake";

/**
 * "Pause all automations": the emergency brake (admins; the page renders it for them only). The
 * dialog says what it will do right now ("12 active automations; 340 runs waiting will hold until
 * you resume; schedules will not fire") before anything happens.
 */
export function PullBrakeButton({ size = "sm" }: { size?: "sm" | "md" }) {
  const [sentence, setSentence] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const pullBrake = useServerAction(pullBrakeAction);
  const getBrakeImpact = useServerAction(getBrakeImpactAction);

  return (
    <div className="space-y-3">
      <ConfirmButton
        label="Pause all automations"
        title="Pause every automation now?"
        confirmLabel="Pause all"
        size={size}
        pending={pullBrake.pending}
        onOpen={() => {
          setSentence(null);
          setError(null);
          void getBrakeImpact
            .call({})
            .then((result) => (result.ok ? setSentence(result.data.sentence) : setError(result.error)));
        }}
        onConfirm={() =>
          pullBrake.run({}, (result) => {
            if (!result.ok) setError(result.error);
          })
        }
      >
        <p data-testid="brake-impact">{sentence ?? "Counting what is running…"}</p>
        <p className="mt-2">
          Releasing the brake later turns back on exactly these automations, not ones that were already
          paused, and the held runs carry on in the order they fell due.
        </p>
      </ConfirmButton>
      {error && (
        <Notice tone="error" title="The automations were not paused">
          {error}
        </Notice>
      )}
    </div>
  );
}

/** "Release the brake" in the banner (admins). */
export function ReleaseBrakeButton() {
  const [error, setError] = useState<string | null>(null);
  const releaseBrake = useServerAction(releaseBrakeAction);
  return (
    <>
      <ConfirmButton
        label="Release the brake"
        title="Release the emergency brake?"
        confirmLabel="Resume automations"
        dismissLabel="Keep paused"
        variant="primary"
        pending={releaseBrake.pending}
        onConfirm={() =>
          releaseBrake.run({}, (result) => {
            if (!result.ok) setError(result.error);
          })
        }
      >
        <p>
          The automations the brake paused turn back on, and runs that fell due while it was on carry on now,
          in the order they fell due.
        </p>
      </ConfirmButton>
      {error && <p className="text-sm text-red-800">{error}</p>}
    </>
  );
}
