import { useSyncExternalStore } from "react";

/** Below Tailwind's `md` (768 px): the editor shows its canvas read-only there. */
const NARROW = "(max-width: 767.98px)";

function subscribe(onChange: () => void): () => void {
  const query = window.matchMedia(NARROW);
  query.addEventListener("change", onChange);
  return () => query.removeEventListener("change", onChange);
}

/**
 * Whether the screen is narrower than the editor needs. False on the server and during
 * hydration (the markup hides what a phone should not see with CSS alone), then the truth.
 */
export function useNarrowScreen(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => window.matchMedia(NARROW).matches,
    () => false,
  );
}
