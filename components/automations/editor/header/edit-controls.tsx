"use client";

import { useId, useMemo } from "react";
import { ActiveToggle } from "@/components/automations/active-toggle";
import { ArchiveButton } from "@/components/automations/archive-button";
import { Button } from "@/components/ui/button";
import { Menu, MenuItem } from "@/components/ui/menu";
import { laterSteps } from "@/lib/automations/nodes/triggers/later-steps";
import { SCHEDULE_TRIGGER } from "@/lib/automations/nodes/triggers/trigger-types";
import type { AutomationView } from "@/lib/automations/lifecycle/read";
import { SHORTCUT_KEYS } from "@/lib/automations/editor/shortcuts";
import { RunNowButton, TryLaterButton } from "../panel/lazy-parts";

/** Undo's and Redo's arrow: a curve back, or its mirror image forward. */
function HistoryArrow({ direction }: { direction: "back" | "forward" }) {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 20 20"
      className={`size-4 ${direction === "forward" ? "-scale-x-100" : ""}`}
      fill="none"
      stroke="currentColor"
      strokeWidth="1.75"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      <path d="M7.5 4.5 4 8l3.5 3.5" />
      <path d="M4 8h8a4 4 0 0 1 0 8H9" />
    </svg>
  );
}

export interface EditControlsProps {
  automation: Pick<AutomationView, "id" | "name" | "status" | "activeGraph">;
  waitingRuns: number;
  readOnly: boolean;
  canUndo: boolean;
  canRedo: boolean;
  onUndo(): void;
  onRedo(): void;
  /** Why Publish is disabled, said beside it; null when it may publish. */
  publishBlocked: string | null;
  canPublish: boolean;
  onPublish(): void;
  canTidy: boolean;
  onTidy(): void;
  canArchive: boolean;
  beforeArchive(): Promise<unknown>;
}

/**
 * The editor's toolbar: Undo, Redo, Run now / Try it later / Pause or Activate for a published
 * flow, Publish, and More (Tidy up, Archive) so the toolbar stays on one line (issue 13).
 */
export function EditControls({
  automation,
  waitingRuns,
  readOnly,
  canUndo,
  canRedo,
  onUndo,
  onRedo,
  publishBlocked,
  canPublish,
  onPublish,
  canTidy,
  onTidy,
  canArchive,
  beforeArchive,
}: EditControlsProps) {
  const publishReasonId = useId();
  const publishedSchedule = automation.activeGraph?.nodes.some((n) => n.type === SCHEDULE_TRIGGER) ?? false;
  // The published Later triggers' steps, for "Try it later…" (a draft's are not runnable yet).
  const publishedLaterSteps = useMemo(() => laterSteps(automation.activeGraph), [automation.activeGraph]);
  return (
    <>
      <Button
        size="sm"
        variant="ghost"
        className="px-2"
        disabled={readOnly || !canUndo}
        onClick={onUndo}
        aria-label="Undo"
        title="Undo (Ctrl+Z)"
        aria-keyshortcuts="Control+Z"
      >
        <HistoryArrow direction="back" />
      </Button>
      <Button
        size="sm"
        variant="ghost"
        className="px-2"
        disabled={readOnly || !canRedo}
        onClick={onRedo}
        aria-label="Redo"
        title="Redo (Ctrl+Shift+Z)"
        aria-keyshortcuts="Control+Shift+Z"
      >
        <HistoryArrow direction="forward" />
      </Button>
      {automation.status === "active" && publishedSchedule && (
        // Its wrapper is a block: as a flex column the button lines up with the others.
        <div className="[&>div]:flex [&>div]:flex-col [&>div]:items-end">
          <RunNowButton automationId={automation.id} name={automation.name} />
        </div>
      )}
      {automation.status === "active" && publishedLaterSteps.length > 0 && (
        <TryLaterButton automationId={automation.id} name={automation.name} steps={publishedLaterSteps} />
      )}
      {(automation.status === "active" || automation.status === "paused") && (
        <ActiveToggle
          id={automation.id}
          name={automation.name}
          status={automation.status}
          waitingRuns={waitingRuns}
        />
      )}
      <Button
        size="sm"
        variant="primary"
        disabled={!canPublish}
        title={publishBlocked ?? `Publish (${SHORTCUT_KEYS.publish.words})`}
        aria-keyshortcuts={SHORTCUT_KEYS.publish.aria}
        aria-describedby={publishBlocked ? publishReasonId : undefined}
        onClick={onPublish}
      >
        Publish
      </Button>
      {publishBlocked && (
        <span id={publishReasonId} className="sr-only">
          {publishBlocked}
        </span>
      )}
      {/* Less frequent actions, so the toolbar stays on one line (issue 13). */}
      <Menu label="More" menuLabel="More actions">
        <MenuItem disabled={readOnly || !canTidy} onSelect={onTidy}>
          Tidy up
        </MenuItem>
        {canArchive && automation.status !== "archived" && (
          <ArchiveButton id={automation.id} name={automation.name} beforeArchive={beforeArchive} menuItem />
        )}
      </Menu>
    </>
  );
}
