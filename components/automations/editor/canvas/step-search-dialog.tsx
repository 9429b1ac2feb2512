"use client";

import { useEffect, useId, useRef, useState } from "react";
import type { NodeInfo } from "@/lib/automations/nodes/catalog";
import { CategoryIcon, CATEGORY_STYLES } from "./category-style";
import { paletteGroups, rankedMatches } from "./palette-groups";

export interface StepSearchDialogProps {
  open: boolean;
  onClose(): void;
  nodes: readonly NodeInfo[];
  /** A built-in automation: the platform jobs are offered too. */
  builtin: boolean;
  /** Where the step goes ("after 'Order paid'"), or null. */
  target: string | null;
  onAdd(definition: NodeInfo): void;
}

/**
 * The add-step search (`/` or Ctrl/⌘+K): type to filter, ↑/↓ to choose, Enter adds the step
 * where the palette would, Escape closes. A native modal `<dialog>` with a combobox and its
 * listbox (WAI-ARIA), so screen readers follow the highlighted step.
 */
export function StepSearchDialog({ open, onClose, ...rest }: StepSearchDialogProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) element.showModal();
    else if (!open && element.open) element.close();
  }, [open]);
  return (
    <dialog
      ref={dialog}
      aria-labelledby={titleId}
      onClose={() => {
        if (open) onClose();
      }}
      className="mx-auto mt-[12vh] w-[calc(100%-2rem)] max-w-md rounded-xl border border-zinc-200 bg-white p-0 text-left text-zinc-900 shadow-xl backdrop:bg-zinc-900/30"
    >
      {open && <StepSearch {...rest} titleId={titleId} onClose={onClose} />}
    </dialog>
  );
}

function StepSearch({
  nodes,
  builtin,
  target,
  onAdd,
  onClose,
  titleId,
}: Omit<StepSearchDialogProps, "open"> & { titleId: string }) {
  const [query, setQuery] = useState("");
  const [active, setActive] = useState(0);
  const listId = useId();
  const matches = rankedMatches(paletteGroups(query, nodes, { platform: builtin }), query);
  const current = Math.min(active, Math.max(0, matches.length - 1));
  const optionId = (i: number) => `${listId}-${i}`;
  const activeOption = useRef<HTMLLIElement>(null);

  useEffect(() => {
    activeOption.current?.scrollIntoView({ block: "nearest" });
  }, [current]);

  function add(definition: NodeInfo | undefined) {
    if (!definition) return;
    onClose();
    onAdd(definition);
  }

  return (
    <div className="p-4">
      <h2 id={titleId} className="text-sm font-semibold text-zinc-900">
        Add a step{target ? ` ${target}` : ""}
      </h2>
      <input
        // The dialog exists to type in this field.
        autoFocus
        role="combobox"
        aria-label="Search steps to add"
        aria-expanded="true"
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={matches.length > 0 ? optionId(current) : undefined}
        value={query}
        onChange={(event) => {
          setQuery(event.target.value);
          setActive(0);
        }}
        onKeyDown={(event) => {
          if (event.key === "ArrowDown") {
            event.preventDefault();
            setActive(matches.length ? (current + 1) % matches.length : 0);
          } else if (event.key === "ArrowUp") {
            event.preventDefault();
            setActive(matches.length ? (current - 1 + matches.length) % matches.length : 0);
          } else if (event.key === "Enter") {
            event.preventDefault();
            add(matches[current]);
          }
        }}
        placeholder="Type a step's name: wait, tag, email…"
        className="mt-2 block w-full rounded-lg border border-zinc-300 px-3 py-2 text-sm focus:border-indigo-600 focus:outline-2 focus:outline-indigo-600/30"
      />
      <ul id={listId} role="listbox" aria-label="Steps" className="mt-2 max-h-72 overflow-y-auto">
        {matches.map((definition, i) => (
          <li
            key={definition.type}
            id={optionId(i)}
            ref={i === current ? activeOption : undefined}
            role="option"
            aria-selected={i === current}
            onMouseMove={() => setActive(i)}
            onClick={() => add(definition)}
            className={`flex cursor-pointer items-start gap-2 rounded-md px-2 py-1.5 text-sm ${i === current ? "bg-indigo-50 text-indigo-900" : "text-zinc-800"}`}
          >
            <CategoryIcon
              category={definition.category}
              className={`mt-0.5 size-4 shrink-0 ${CATEGORY_STYLES[definition.category].icon}`}
            />
            <span>
              {definition.label}
              <span className="block text-xs text-zinc-600">{definition.description}</span>
            </span>
          </li>
        ))}
      </ul>
      {matches.length === 0 && <p className="mt-2 px-2 text-sm text-zinc-600">No step matches “{query}”.</p>}
      <p className="mt-3 border-t border-zinc-200 pt-2 text-xs text-zinc-600">
        ↑ ↓ to choose · Enter adds it · Esc closes
      </p>
    </div>
  );
}
