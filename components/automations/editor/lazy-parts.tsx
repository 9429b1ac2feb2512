"use client";

import dynamic from "next/dynamic";

/*
 * The parts of the editor that load when first needed (issue 13: the editor's first-load JS,
 * `npm run bench -- editor-js`): the Step tab and its form, the other tabs, the publish dialog and the
 * buttons only some flows show. dagre (`layout.ts`, only on "Tidy up") and the node registry with
 * zod (`node-logic.ts`, on the first pointer, key or focus) load the same way elsewhere.
 */

export function Loading() {
  return <p className="text-sm text-zinc-500">Loading…</p>;
}
export const NodeConfig = dynamic(() => import("./config/node-config").then((m) => m.NodeConfig), {
  loading: Loading,
});
// Only an active flow with a schedule shows it.
export const RunNowButton = dynamic(() =>
  import("@/components/automations/run-now-button").then((m) => m.RunNowButton),
);
// Only an active flow with a Later trigger shows it; it brings the Later action's definition and zod.
export const TryLaterButton = dynamic(() =>
  import("@/components/automations/try-later-button").then((m) => m.TryLaterButton),
);
export const ConnectionsEditor = dynamic(() =>
  import("./connections-editor").then((m) => m.ConnectionsEditor),
);
export const SchedulePreview = dynamic(() =>
  import("@/components/automations/schedule-preview").then((m) => m.SchedulePreview),
);
export const DryRunPanel = dynamic(() => import("./panels/dry-run-panel").then((m) => m.DryRunPanel), {
  loading: Loading,
});
export const VersionsTab = dynamic(() => import("./versions-tab").then((m) => m.VersionsTab), {
  loading: Loading,
});
export const SettingsTab = dynamic(() => import("./settings-tab").then((m) => m.SettingsTab), {
  loading: Loading,
});
// Not shown before a step is selected; its form, Next steps and schedule preview load later still.
export const StepPanel = dynamic(() => import("./step-panel").then((m) => m.StepPanel), {
  loading: Loading,
});
export const ResetBuiltinButton = dynamic(() =>
  import("@/components/automations/reset-builtin-button").then((m) => m.ResetBuiltinButton),
);
export const EditorPublishDialog = dynamic(() =>
  import("./editor-publish-dialog").then((m) => m.EditorPublishDialog),
);
