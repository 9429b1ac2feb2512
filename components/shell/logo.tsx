/** The Tillflow mark: three steps of a flow joined by a line. */
export function Logo({ withName = true }: { withName?: boolean }) {
  return (
    <span className="inline-flex items-center gap-2">
      <svg viewBox="0 0 32 32" aria-hidden="true" className="size-8">
        <rect width="32" height="32" rx="8" className="fill-zinc-900" />
        <path d="M9 10h6M9 16h14M17 22h6" className="stroke-white" strokeWidth="2.5" strokeLinecap="round" />
        <circle cx="9" cy="10" r="2" className="fill-emerald-400" />
        <circle cx="23" cy="22" r="2" className="fill-indigo-300" />
      </svg>
      {withName && <span className="text-base font-semibold tracking-tight text-zinc-900">Tillflow</span>}
    </span>
  );
}
