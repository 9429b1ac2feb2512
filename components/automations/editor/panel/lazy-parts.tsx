"use client";

import dynamic from "next/dynamic";
import { Loading } from "./lazy-children";

/*
 * The parts of the editor that load when first needed (issue 13: the editor's first-load JS,
 * `npm run bench -- editor-js`): the Step tab and its form, the other tabs, the publish dialog and the
 * buttons only some flows show. dagre (`layout.ts`, only on "Tidy up") and the node registry with
 * zod (`node-logic.ts`, on the first pointer, key or focus) load the same way elsewhere.
 */

// Only an active flow with a schedule shows it.
export const RunNowButton = dynamic(() =>
  import("@/components/automations/run-now-button").then((m) => m.RunNowButton),
);
// Only an active flow with a Later trigger shows it; it brings the Later action's definition and zod.
export const TryLaterButton = dynamic(() =>
  import("@/components/automations/try-later-button").then((m) => m.TryLaterButton),
);
export const DryRunPanel = dynamic(() => import("./dry-run-panel").then((m) => m.DryRunPanel), {
  loading: Loading,
});
export const BacktestTab = dynamic(() => import("./backtest-tab").then((m) => m.BacktestTab), {
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
export const EditorPublishDialog = dynamic(() =>
  import("../header/editor-publish-dialog").then((m) => m.EditorPublishDialog),
);
