import { Card } from "@/components/ui/card";
import { shownAttributes, type ShownAttribute } from "./store-attributes";

/**
 * "More from the store": what the record's store sent besides the fields Tillflow knows, folded
 * away until asked for. Values read as text; only a deeply nested one is shown as JSON. Nothing
 * when the store sent nothing else.
 */
export function StoreAttributesCard({
  attributes,
  timeZone,
}: {
  attributes: Record<string, unknown> | null;
  timeZone: string;
}) {
  const shown = attributes ? shownAttributes(attributes, timeZone) : [];
  if (shown.length === 0) return null;
  return (
    <Card>
      <details className="group" data-testid="store-attributes">
        <summary className="cursor-pointer rounded-xl px-5 py-4 text-sm font-semibold text-zinc-900 hover:bg-zinc-50">
          More from the store{" "}
          <span className="font-normal text-zinc-500">
            ({shown.length === 1 ? "1 field" : `${shown.length} fields`})
          </span>
        </summary>
        <dl className="grid grid-cols-1 gap-x-6 gap-y-4 border-t border-zinc-200 px-5 py-4 sm:grid-cols-2">
          {shown.map((item) => (
            <div key={item.key} className={item.kind === "text" ? "min-w-0" : "min-w-0 sm:col-span-2"}>
              <dt className="text-xs font-medium text-zinc-500">{item.label}</dt>
              <dd className="mt-1 text-sm break-words text-zinc-900">
                <Value item={item} />
              </dd>
            </div>
          ))}
        </dl>
      </details>
    </Card>
  );
}

function Value({ item }: { item: ShownAttribute }) {
  switch (item.kind) {
    case "text":
      return item.text;
    case "pairs":
      return (
        <ul className="space-y-1">
          {item.pairs.map((pair, i) => (
            <li key={`${pair.name}-${i}`}>
              <span className="text-zinc-600">{pair.name}:</span> {pair.value}
            </li>
          ))}
        </ul>
      );
    case "json":
      return (
        // Wrapped rather than scrolled, so it needs no keyboard focus to be read.
        <pre className="rounded-lg bg-zinc-50 p-3 font-mono text-[11px] leading-5 break-all whitespace-pre-wrap text-zinc-800 ring-1 ring-zinc-200">
          {item.json}
        </pre>
      );
  }
}
