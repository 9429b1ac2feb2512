"use client";

import { useState } from "react";

/**
 * True from the first render where `value` is true on: what loads when first wanted and then
 * stays mounted (the dry run keeps its result, the publish dialog animates closed).
 */
export function useOnceTrue(value: boolean): boolean {
  const [once, setOnce] = useState(value);
  // Set while rendering: React renders again at once, with it true.
  if (value && !once) setOnce(true);
  return once;
}
