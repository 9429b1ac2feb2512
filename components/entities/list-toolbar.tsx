import Form from "next/form";
import Link from "next/link";
import { Button } from "@/components/ui/button";
import { Input, Label, Select } from "@/components/ui/form";

export interface ListToolbarProps {
  /** The list's path, e.g. "/orders"; the form navigates there with the filters as search params. */
  path: string;
  /** What the search box searches, for its label and placeholder, e.g. "number or email". */
  searchHint: string;
  q?: string;
  /** A status filter, when the domain has statuses. */
  status?: { value?: string; options: ReadonlyArray<{ value: string; label: string }> };
}

/**
 * Search and filter for an entity list. A plain GET form (enhanced by next/form into client
 * navigation), so filters live in the URL, can be shared, and work before JavaScript loads.
 * Applying filters drops the page cursor: results start again from the newest.
 */
export function ListToolbar({ path, searchHint, q, status }: ListToolbarProps) {
  const filtered = Boolean(q || status?.value);
  return (
    <Form
      action={path}
      className="flex flex-wrap items-end gap-3 border-b border-zinc-200 px-5 py-4"
      role="search"
    >
      <div className="min-w-56 flex-1">
        <Label htmlFor="list-q">Search</Label>
        <Input
          id="list-q"
          name="q"
          type="search"
          defaultValue={q}
          placeholder={`Search by ${searchHint}`}
          className="mt-1.5"
        />
      </div>
      {status && (
        <div className="w-44">
          <Label htmlFor="list-status">Status</Label>
          <Select id="list-status" name="status" defaultValue={status.value ?? ""} className="mt-1.5">
            <option value="">All statuses</option>
            {status.options.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </Select>
        </div>
      )}
      <FilterActions path={path} filtered={filtered} />
    </Form>
  );
}

/** The end of a filter form: Apply, and while any filter is set, a link back to the unfiltered list. */
export function FilterActions({ path, filtered }: { path: string; filtered: boolean }) {
  return (
    <div className="flex items-center gap-2">
      <Button type="submit" variant="primary">
        Apply
      </Button>
      {filtered && (
        <Link href={path} className="rounded px-2 py-2 text-sm font-medium text-zinc-600 hover:text-zinc-900">
          Clear filters
        </Link>
      )}
    </div>
  );
}
