"use client";

import { useEffect, useState } from "react";

/** A short message on the canvas ("Copied 2 steps."), gone after two and a half seconds. */
export function useFlash(): [string | null, (text: string | null) => void] {
  const [flash, setFlash] = useState<string | null>(null);
  useEffect(() => {
    if (!flash) return;
    const timer = setTimeout(() => setFlash(null), 2500);
    return () => clearTimeout(timer);
  }, [flash]);
  return [flash, setFlash];
}
