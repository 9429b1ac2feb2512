"use client";

import { useCallback, useEffect, useRef } from "react";

const FIELD =
  "input:not([type=hidden]):not(:disabled), select:not(:disabled), textarea:not(:disabled), [contenteditable=true]";
const ANY_FOCUSABLE = `${FIELD}, button:not(:disabled)`;
/** The step form loads late (with the registry, then its own code): wait this long at most. */
const GIVE_UP_MS = 5000;

/**
 * After a step is added by keyboard, focus moves into its first field, so typing goes on with no
 * Tab (43 of them before). The form shows up a few frames later (it loads with the registry), so
 * this looks each frame until it is there; a step with no field gets its panel's first control.
 */
export function useFocusStepField(): (stepId: string) => void {
  const frame = useRef<number | null>(null);
  useEffect(
    () => () => {
      if (frame.current !== null) cancelAnimationFrame(frame.current);
    },
    [],
  );
  return useCallback((stepId: string) => {
    if (frame.current !== null) cancelAnimationFrame(frame.current);
    const started = performance.now();
    const look = () => {
      const form = document.querySelector<HTMLFormElement>(`form[data-step-form="${CSS.escape(stepId)}"]`);
      const field = form?.querySelector<HTMLElement>(FIELD);
      const panel = document.querySelector<HTMLElement>('[role="tabpanel"][aria-label="Step"]');
      const waited = performance.now() - started;
      const target =
        field ?? (form && waited > 300 ? panel?.querySelector<HTMLElement>(ANY_FOCUSABLE) : null);
      if (target) {
        target.focus();
        frame.current = null;
        return;
      }
      if (waited < GIVE_UP_MS) frame.current = requestAnimationFrame(look);
      else frame.current = null;
    };
    frame.current = requestAnimationFrame(look);
  }, []);
}
