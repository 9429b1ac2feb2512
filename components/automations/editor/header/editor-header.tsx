"use client";

import Link from "next/link";
import type { ReactNode } from "react";
import { AutomationStatusBadge } from "@/components/automations/automation-status";
import type { AutomationView } from "@/lib/automations/lifecycle/read";
import { HeaderName } from "./header-name";
import { SaveStatus } from "./save-status";
import { ShowPerformanceToggle } from "@/components/performance/canvas-overlay"; // performance overlay
import type { SaveState } from "../state/use-autosave";

export interface EditorHeaderProps {
  automation: Pick<AutomationView, "id" | "name" | "status" | "version" | "builtinSlug">;
  /** The name as typed in Settings (the saved one while it is blank). */
  title: string;
  waitingRuns: number;
  canEdit: boolean;
  saveState: SaveState;
  /** The toolbar's buttons (`EditControls`), or null when there are none to show. */
  controls: ReactNode;
  /** Renames the draft (the header's Rename); null when it is read-only. */
  onRename: ((name: string) => void) | null;
}

/**
 * The editor's header: back to Automations, the flow's name, status and version, its Runs and
 * Waiting and Insights pages, and the toolbar — save status, or why it is read-only, and the edit controls.
 * The toolbar stays on the title's line from xl up; the title truncates, and when it would go below
 * 8rem the status and links wrap under it. Below xl the toolbar takes a row of its own.
 */
export function EditorHeader({
  automation,
  title,
  waitingRuns,
  canEdit,
  saveState,
  controls,
  onRename,
}: EditorHeaderProps) {
  return (
    <header className="flex flex-wrap items-center gap-x-4 gap-y-2 border-b border-zinc-200 bg-white px-4 py-3 xl:flex-nowrap">
      <div className="flex min-w-0 flex-1 flex-wrap items-center gap-x-3 gap-y-1">
        <Link
          href="/automations"
          className="shrink-0 text-sm whitespace-nowrap text-zinc-600 hover:text-zinc-900"
        >
          <span aria-hidden="true">←</span> Automations
        </Link>
        <HeaderName title={title} onRename={onRename} />
        <span className="shrink-0">
          <AutomationStatusBadge status={automation.status} />
        </span>
        <span className="shrink-0 text-sm whitespace-nowrap text-zinc-500">
          {automation.version > 0 ? `Version ${automation.version}` : "Never published"}
        </span>
        <nav aria-label="Automation" className="flex shrink-0 items-center gap-3 text-sm whitespace-nowrap">
          <Link href={`/automations/${automation.id}/runs`} className="text-zinc-600 hover:text-zinc-900">
            Runs
          </Link>
          <Link href={`/automations/${automation.id}/waiting`} className="text-zinc-600 hover:text-zinc-900">
            Waiting{waitingRuns > 0 ? ` (${waitingRuns})` : ""}
          </Link>
          <Link href={`/automations/${automation.id}/insights`} className="text-zinc-600 hover:text-zinc-900">
            Insights
          </Link>
        </nav>
      </div>
      <div
        data-testid="editor-toolbar"
        className="flex flex-wrap items-center gap-2 md:flex-nowrap xl:shrink-0"
      >
        {/* performance overlay */}
        <ShowPerformanceToggle />
        {canEdit && (
          <span className="hidden whitespace-nowrap md:inline">
            <SaveStatus state={saveState} />
          </span>
        )}
        {!canEdit && (
          <span className="rounded-md bg-zinc-100 px-2 py-1 text-xs font-medium text-zinc-700">
            {automation.status === "archived"
              ? "Read-only: archived"
              : automation.builtinSlug
                ? "Read-only: only admins change built-in automations"
                : "Read-only: viewers can’t edit"}
          </span>
        )}
        {controls && <div className="hidden items-center gap-2 md:flex">{controls}</div>}
      </div>
    </header>
  );
}
