"use client";

import { useState } from "react";
import type { Panel } from "./side-panel";

/** The side panel's open tab: Issues at first; selecting a step opens its settings (Step). */
export function usePanelTab(selectedId: string | undefined): [Panel, (panel: Panel) => void] {
  const [panel, setPanel] = useState<Panel>("issues");
  const [shownSelection, setShownSelection] = useState(selectedId);
  if (selectedId !== shownSelection) {
    setShownSelection(selectedId);
    if (selectedId) setPanel("step");
  }
  return [panel, setPanel];
}
