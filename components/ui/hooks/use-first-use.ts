"use client";

import { useEffect } from "react";

const SIGNS_OF_USE = ["pointerover", "pointerdown", "keydown", "focusin"] as const;

/**
 * Calls `onUse` at the first sign of use of the page — a pointer over it, a press, a key or a
 * focus — while `waiting`. The flow editor loads the registry's half this way.
 */
export function useFirstUse(waiting: boolean, onUse: () => unknown): void {
  useEffect(() => {
    if (!waiting) return;
    const wake = () => void onUse();
    for (const type of SIGNS_OF_USE) document.addEventListener(type, wake, { capture: true, passive: true });
    return () => {
      for (const type of SIGNS_OF_USE) document.removeEventListener(type, wake, { capture: true });
    };
  }, [waiting, onUse]);
}
