"use client";

import { useEffect, useId, useState } from "react";
import { cn } from "@/components/ui/cn";
import { Input, Label } from "@/components/ui/form";
import { reach } from "@/components/ui/hooks/use-server-action";
import { searchEntitiesAction } from "@/lib/actions/entities/search-entities";
import { DOMAIN_LABELS, type Domain } from "@/lib/domains/domains";

export interface EntityOption {
  id: string;
  label: string;
}

type Search = { key: string } & ({ ok: true; options: EntityOption[] } | { ok: false; error: string });

/** How long typing pauses before the record search asks the server. */
const SEARCH_DELAY_MS = 250;

/**
 * A search box and a labelled group of radio buttons ("Record"): arrow keys move between records,
 * as in any radio group. "No record" is always there, and the chosen record stays listed while
 * the search changes.
 */
export function RecordPicker({
  domain,
  selected,
  onSelect,
  disabled,
}: {
  domain: Domain;
  selected: EntityOption | null;
  onSelect(option: EntityOption | null): void;
  disabled: boolean;
}) {
  const labels = DOMAIN_LABELS[domain];
  const searchId = useId();
  const groupLabelId = useId();
  const listId = useId();
  const name = useId();
  const [query, setQuery] = useState("");
  const [search, setSearch] = useState<Search | null>(null);
  const key = `${domain}\u0000${query.trim()}`;

  useEffect(() => {
    let live = true;
    const text = query.trim();
    const timer = setTimeout(
      () => {
        void reach(searchEntitiesAction({ domain, query: text || undefined, limit: 20 })).then((answer) => {
          if (!live) return;
          setSearch(
            answer.ok ? { key, ok: true, options: answer.data } : { key, ok: false, error: answer.error },
          );
        });
      },
      text ? SEARCH_DELAY_MS : 0,
    );
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [domain, key, query]);

  const searching = search?.key !== key;
  const found = search?.ok ? search.options : [];
  const options = selected && !found.some((o) => o.id === selected.id) ? [selected, ...found] : found;

  let status = "";
  if (searching) status = "Searching…";
  else if (search && !search.ok) status = search.error;
  else if (found.length === 0)
    status = query.trim()
      ? `No ${labels.many} match '${query.trim()}'.`
      : `This shop has no ${labels.many} yet.`;
  else status = found.length === 1 ? `1 ${labels.one} found.` : `${found.length} ${labels.many} found.`;

  return (
    <div>
      <Label htmlFor={searchId}>Search {labels.many}</Label>
      <Input
        id={searchId}
        type="search"
        controlSize="sm"
        className="mt-1.5"
        value={query}
        onChange={(event) => setQuery(event.target.value)}
        aria-controls={listId}
        placeholder="Number, email, name or id"
        autoComplete="off"
        disabled={disabled}
      />
      <p id={groupLabelId} className="mt-3 text-sm font-medium text-zinc-800">
        Record
      </p>
      <div
        id={listId}
        role="radiogroup"
        aria-labelledby={groupLabelId}
        aria-busy={searching || undefined}
        className="mt-1.5 max-h-56 divide-y divide-zinc-100 overflow-y-auto rounded-lg border border-zinc-200"
      >
        <RecordOption
          name={name}
          label={`No ${labels.one}`}
          checked={selected === null}
          disabled={disabled}
          onChange={() => onSelect(null)}
        />
        {options.map((option) => (
          <RecordOption
            key={option.id}
            name={name}
            label={option.label}
            checked={selected?.id === option.id}
            disabled={disabled}
            onChange={() => onSelect(option)}
          />
        ))}
      </div>
      <p
        role="status"
        className={cn("mt-1.5 text-xs", search && !search.ok ? "text-red-700" : "text-zinc-500")}
      >
        {status}
      </p>
    </div>
  );
}

function RecordOption({
  name,
  label,
  checked,
  disabled,
  onChange,
}: {
  name: string;
  label: string;
  checked: boolean;
  disabled: boolean;
  onChange(): void;
}) {
  return (
    <label
      className={cn(
        "flex cursor-pointer items-start gap-2 px-3 py-2 text-sm text-zinc-800 hover:bg-zinc-50 has-focus-visible:bg-indigo-50",
        checked && "bg-indigo-50/60",
      )}
    >
      <input
        type="radio"
        name={name}
        checked={checked}
        disabled={disabled}
        onChange={onChange}
        className="mt-0.5 size-4 shrink-0 accent-indigo-600"
      />
      <span className="min-w-0 break-words">{label}</span>
    </label>
  );
}
