/** A step's input or output as indented JSON, folded away until asked for. */
export function JsonBlock({ label, value }: { label: string; value: unknown }) {
  if (value === null || value === undefined) return null;
  return (
    <details className="mt-2 text-xs">
      <summary className="cursor-pointer text-zinc-600 hover:text-zinc-900">{label}</summary>
      <pre className="mt-1 max-h-64 overflow-auto rounded-lg bg-zinc-50 p-3 font-mono text-[11px] leading-5 text-zinc-800 ring-1 ring-zinc-200">
        {JSON.stringify(value, null, 2)}
      </pre>
    </details>
  );
}
