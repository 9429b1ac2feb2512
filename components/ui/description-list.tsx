import type { ReactNode } from "react";
import { cn } from "./cn";

/** Label/value pairs, such as a record's fields. Two columns from small screens up unless `columns` is 1. */
export function DescriptionList({
  items,
  columns = 2,
}: {
  items: Array<{ term: string; detail: ReactNode }>;
  columns?: 1 | 2;
}) {
  return (
    <dl className={cn("grid grid-cols-1 gap-x-6 gap-y-4", columns === 2 && "sm:grid-cols-2")}>
      {items.map((item) => (
        <div key={item.term} className="min-w-0">
          <dt className="text-xs font-medium text-zinc-500">{item.term}</dt>
          <dd className="mt-1 text-sm break-words text-zinc-900">{item.detail}</dd>
        </div>
      ))}
    </dl>
  );
}
