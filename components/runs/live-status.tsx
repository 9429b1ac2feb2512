/** A quiet line under a live list: updating, or why it stopped (the data shown stays). */
export function LiveStatus({ error }: { error: Error | null }) {
  return (
    <p className="px-5 py-2 text-xs text-zinc-500" data-testid="live-status">
      {error ? (
        <span className="text-amber-700">Live updates paused: {error.message} Retrying…</span>
      ) : (
        <>
          <span
            aria-hidden="true"
            className="mr-1.5 inline-block size-1.5 rounded-full bg-emerald-500 align-middle"
          />
          Live: updates every few seconds
        </>
      )}
    </p>
  );
}
