"use client";

import { useId, useRef, useState } from "react";
import { needsName } from "@/lib/automations/editor/names";

export interface HeaderNameProps {
  /** The name as it stands (the draft's). */
  title: string;
  /** Null: the name cannot be changed here (read-only). */
  onRename: ((name: string) => void) | null;
}

/**
 * The automation's name as the editor's heading, renamed in place: "Rename" turns it into a
 * field; Enter (or leaving the field) keeps the new name, Escape puts the old one back. The
 * draft autosaves it like any edit.
 */
export function HeaderName({ title, onRename }: HeaderNameProps) {
  const [editing, setEditing] = useState(false);
  const [value, setValue] = useState(title);
  const [error, setError] = useState<string | null>(null);
  const renameButton = useRef<HTMLButtonElement>(null);
  const unnamed = needsName(title);
  const id = useId();

  function finish(save: boolean) {
    if (save) {
      const next = value.trim();
      if (!next) {
        setError("Give the automation a name.");
        return;
      }
      if (next !== title) onRename?.(next);
    }
    setError(null);
    setEditing(false);
    // Back to the button that opened the field, not to the page.
    requestAnimationFrame(() => renameButton.current?.focus());
  }

  if (editing && onRename) {
    return (
      <span className="flex min-w-0 items-center gap-2">
        <input
          // The field replaces the heading the person just chose to rename.
          autoFocus
          aria-label="Automation name"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : `${id}-hint`}
          value={value}
          maxLength={120}
          onChange={(event) => {
            setValue(event.target.value);
            setError(null);
          }}
          onFocus={(event) => event.currentTarget.select()}
          onKeyDown={(event) => {
            if (event.key === "Enter") {
              event.preventDefault();
              finish(true);
            } else if (event.key === "Escape") {
              event.preventDefault();
              event.stopPropagation();
              setValue(title);
              finish(false);
            }
          }}
          onBlur={() => {
            if (value.trim()) finish(true);
          }}
          className="w-72 max-w-full min-w-0 rounded-md border border-zinc-300 px-2 py-1 text-lg font-semibold text-zinc-900 focus:border-indigo-600 focus:outline-2 focus:outline-indigo-600/30"
        />
        <span id={`${id}-hint`} className="sr-only">
          Enter keeps the name, Escape cancels.
        </span>
        {error && (
          <span id={`${id}-error`} className="text-xs whitespace-nowrap text-red-700">
            {error}
          </span>
        )}
      </span>
    );
  }

  return (
    // Never squeezed to nothing: past 8rem the links beside it wrap under it instead.
    <span className="flex max-w-full min-w-[8rem] items-center gap-1">
      <h1
        className={`max-w-full min-w-0 truncate text-lg font-semibold ${unnamed ? "text-zinc-500 italic" : "text-zinc-900"}`}
        title={title}
      >
        {title}
      </h1>
      {onRename && (
        <button
          ref={renameButton}
          type="button"
          title="Rename"
          onClick={() => {
            setValue(unnamed ? "" : title);
            setEditing(true);
          }}
          className="shrink-0 rounded p-1 text-zinc-500 hover:bg-zinc-100 hover:text-zinc-900 focus-visible:outline-2 focus-visible:outline-indigo-600"
        >
          <svg
            aria-hidden="true"
            viewBox="0 0 20 20"
            className="size-4"
            fill="none"
            stroke="currentColor"
            strokeWidth="1.75"
            strokeLinecap="round"
            strokeLinejoin="round"
          >
            <path d="M13.5 3.5l3 3L7 16H4v-3z" />
          </svg>
          {/* Named by its text, not aria-label, so "Name" fields elsewhere stay the only match for a label lookup. */}
          <span className="sr-only">Rename</span>
        </button>
      )}
    </span>
  );
}
