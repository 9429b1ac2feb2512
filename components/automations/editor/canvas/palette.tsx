"use client";

import { useId, useState, type RefObject } from "react";
import { Input } from "@/components/ui/form";
import { SHORTCUT_KEYS } from "@/lib/automations/editor/shortcuts";
import type { NodeInfo } from "@/lib/automations/nodes/catalog";
import { CategoryIcon, CATEGORY_STYLES } from "./category-style";
import { bestMatch, paletteGroups } from "./palette-groups";

export interface PaletteProps {
  /** Every node type, from the catalog the page sends. */
  nodes: readonly NodeInfo[];
  disabled: boolean;
  /** Where the next step goes: after a node's exit ("After 'Order paid'"), or null (on its own). */
  target: string | null;
  onClearTarget(): void;
  /** The target inserts on a line: add beside it as a parallel branch instead (null otherwise). */
  onBranchInstead?: (() => void) | null;
  onAdd(definition: NodeInfo): void;
  searchRef: RefObject<HTMLInputElement | null>;
  /** A built-in automation: also offer the platform jobs, which merchants' own flows do not get. */
  builtin?: boolean;
}

/**
 * The step palette: every node type in Triggers, Timing, Conditions, Actions, with search. A click
 * (or Enter) adds the step after the selected one and connects it, so a flow can be built from the
 * keyboard alone; the search is cleared for the next step.
 */
export function Palette({
  nodes,
  disabled,
  target,
  onClearTarget,
  onBranchInstead = null,
  onAdd,
  searchRef,
  builtin = false,
}: PaletteProps) {
  const [query, setQuery] = useState("");
  const groups = paletteGroups(query, nodes, { platform: builtin });
  const searchId = useId();
  // A step added, the search starts afresh: the next one is not found by "add tagsend email".
  function add(definition: NodeInfo) {
    onAdd(definition);
    setQuery("");
  }

  return (
    <aside aria-label="Steps" className="flex min-h-0 flex-col border-r border-zinc-200 bg-white">
      <div className="border-b border-zinc-200 p-3">
        {target && (
          <div className="mb-2 rounded-md bg-indigo-50 px-2 py-1 text-xs text-indigo-900">
            <p className="flex items-center justify-between gap-2">
              <span className="truncate" title={`${onBranchInstead ? "Inserts" : "Adds"} ${target}`}>
                {onBranchInstead ? "Inserts" : "Adds"} {target}
              </span>
              <button
                type="button"
                className="shrink-0 rounded px-1 font-medium hover:underline"
                onClick={onClearTarget}
              >
                Cancel
              </button>
            </p>
            {onBranchInstead && (
              <button
                type="button"
                className="mt-0.5 rounded px-1 -ml-1 font-medium underline-offset-2 hover:underline"
                onClick={onBranchInstead}
              >
                Add a parallel branch instead
              </button>
            )}
          </div>
        )}
        <label htmlFor={searchId} className="text-xs font-semibold tracking-wide text-zinc-500 uppercase">
          Add a step
        </label>
        <Input
          id={searchId}
          ref={searchRef}
          type="search"
          controlSize="sm"
          className="mt-2"
          placeholder="Search steps"
          aria-label="Search steps"
          title={`Search steps (${SHORTCUT_KEYS["add-step"].words} opens a quick search from anywhere)`}
          value={query}
          disabled={disabled}
          onChange={(e) => setQuery(e.target.value)}
          onKeyDown={(e) => {
            // Enter adds the best-named match: type "wait", press Enter.
            const best = bestMatch(groups, query);
            if (e.key === "Enter" && query.trim() && best) {
              e.preventDefault();
              add(best);
            }
          }}
        />
      </div>
      <div className="min-h-0 flex-1 overflow-y-auto p-2">
        {groups.length === 0 && <p className="p-2 text-sm text-zinc-500">No step matches “{query}”.</p>}
        {groups.map((group) => (
          <section key={group.title} className="mb-3">
            <h2 className="px-2 py-1 text-xs font-semibold tracking-wide text-zinc-500 uppercase">
              {group.title}
            </h2>
            <ul>
              {group.items.map((definition) => (
                <li key={definition.type}>
                  <button
                    type="button"
                    disabled={disabled}
                    title={definition.description}
                    onClick={() => add(definition)}
                    className="flex w-full items-start gap-2 rounded-md px-2 py-1.5 text-left text-sm text-zinc-800 hover:bg-zinc-100 focus-visible:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-indigo-600 disabled:cursor-not-allowed disabled:opacity-50"
                  >
                    <CategoryIcon
                      category={definition.category}
                      className={`mt-0.5 size-4 shrink-0 ${CATEGORY_STYLES[definition.category].icon}`}
                    />
                    <span>{definition.label}</span>
                  </button>
                </li>
              ))}
            </ul>
          </section>
        ))}
      </div>
    </aside>
  );
}
