/**
 * A minute clock for `useSyncExternalStore`: components that show "5 minutes ago" re-render when
 * the minute changes, all from one timer. The server snapshot is null, which tells a component it
 * is rendering on the server or hydrating, where the browser's clock and time zone are unknown.
 */
const listeners = new Set<() => void>();
let timer: ReturnType<typeof setInterval> | null = null;

export function subscribeToMinute(listener: () => void): () => void {
  listeners.add(listener);
  timer ??= setInterval(() => listeners.forEach((l) => l()), 60_000);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer) {
      clearInterval(timer);
      timer = null;
    }
  };
}

/** The current minute; stable within a minute, so React only re-renders when it changes. */
export function minuteSnapshot(): number {
  return Math.floor(Date.now() / 60_000);
}

export function serverMinuteSnapshot(): null {
  return null;
}

/** Milliseconds since the epoch, read at render time. A function so render code stays declarative. */
export function readClock(): number {
  return Date.now();
}
