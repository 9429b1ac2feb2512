import { ButtonLink } from "@/components/ui/button-link";

export interface PagerProps {
  path: string;
  /** The filters to keep while paging (empty values are dropped). */
  params: Record<string, string | undefined>;
  nextCursor: string | null;
  /** True when this page was reached through a cursor (so "First page" makes sense). */
  paged: boolean;
  /** How many rows this page shows, for the summary line. */
  shown: number;
  noun: { one: string; many: string };
}

function hrefFor(path: string, params: Record<string, string | undefined>, cursor?: string): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value) search.set(key, value);
  if (cursor) search.set("cursor", cursor);
  const query = search.toString();
  return query ? `${path}?${query}` : path;
}

/**
 * Keyset pagination: "Next page" carries the cursor of the last row shown, so each page is one
 * index range scan however deep it is. There is no page count: counting would scan everything.
 */
export function Pager({ path, params, nextCursor, paged, shown, noun }: PagerProps) {
  if (!nextCursor && !paged) {
    return (
      <p className="border-t border-zinc-200 px-5 py-3 text-sm text-zinc-500">
        {shown} {shown === 1 ? noun.one : noun.many}
      </p>
    );
  }
  return (
    <nav
      aria-label="Pagination"
      className="flex flex-wrap items-center justify-between gap-3 border-t border-zinc-200 px-5 py-3"
    >
      <p className="text-sm text-zinc-500">
        Showing {shown} {shown === 1 ? noun.one : noun.many}
        {paged ? ", continued" : ", newest first"}
      </p>
      <div className="flex gap-2">
        {paged && (
          <ButtonLink href={hrefFor(path, params)} size="sm">
            First page
          </ButtonLink>
        )}
        {nextCursor ? (
          <ButtonLink href={hrefFor(path, params, nextCursor)} size="sm" rel="next">
            Next page <span aria-hidden="true">→</span>
          </ButtonLink>
        ) : (
          <span className="px-2 py-1.5 text-sm text-zinc-500">End of the list</span>
        )}
      </div>
    </nav>
  );
}
