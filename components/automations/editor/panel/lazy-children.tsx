"use client";

import dynamic from "next/dynamic";

/*
 * What the lazily loaded parts (`lazy-parts.tsx`) load lazily in their turn: the step form, Next
 * steps, the schedule preview, the reset button of a built-in. Apart from lazy-parts.tsx so that a
 * part never imports the file that loads it.
 */

export function Loading() {
  return <p className="text-sm text-zinc-500">Loading…</p>;
}
export const NodeConfig = dynamic(() => import("../step-form/node-config").then((m) => m.NodeConfig), {
  loading: Loading,
});
export const ConnectionsEditor = dynamic(() =>
  import("./connections-editor").then((m) => m.ConnectionsEditor),
);
export const SchedulePreview = dynamic(() =>
  import("@/components/automations/schedule-preview").then((m) => m.SchedulePreview),
);
export const ResetBuiltinButton = dynamic(() =>
  import("@/components/automations/reset-builtin-button").then((m) => m.ResetBuiltinButton),
);
