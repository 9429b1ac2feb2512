"use client";

import { useEffect, useId, useRef, useState, type KeyboardEvent, type RefObject } from "react";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { groupTokens, insertAt, type TokenOption } from "@/lib/automations/review/tokens-for";

export type TokenTarget = HTMLInputElement | HTMLTextAreaElement;

export interface TokenPickerProps {
  /** The tokens to offer (see `tokensFor`). */
  tokens: readonly TokenOption[];
  /** The input or textarea the token goes into, at its caret. */
  target: RefObject<TokenTarget | null>;
  /**
   * The id of the field's label. It describes the button rather than naming it: every picker is
   * named "Insert token", and a label lookup for the field ("URL") never finds the button too.
   */
  labelId: string;
  disabled?: boolean;
  /** Called with the field's whole new text. */
  onInsert(text: string): void;
}

/**
 * "Insert token": a button that opens a listbox of `{token}`s and puts the chosen one at the
 * caret of its field (replacing any selection). Keyboard: ArrowDown on the button opens it;
 * arrows, Home and End move, Enter inserts, Escape closes and returns to the button. Focus moves
 * back to the field after an insert, with the caret after the token (or inside an open one).
 */
export function TokenPicker({ tokens, target, labelId, disabled = false, onInsert }: TokenPickerProps) {
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const listId = useId();
  const buttonId = `${listId}-button`;
  const button = useRef<HTMLButtonElement>(null);
  const list = useRef<HTMLDivElement>(null);
  const optionId = (index: number) => `${listId}-option-${index}`;

  useEffect(() => {
    if (open) list.current?.focus();
  }, [open]);

  useEffect(() => {
    if (open) document.getElementById(`${listId}-option-${active}`)?.scrollIntoView?.({ block: "nearest" });
  }, [open, active, listId]);

  function show(index = 0) {
    setActive(index);
    setOpen(true);
  }

  function close(refocus: boolean) {
    setOpen(false);
    if (refocus) button.current?.focus();
  }

  function insert(option: TokenOption) {
    const field = target.current;
    setOpen(false);
    if (!field) return;
    const { text, caret } = insertAt(
      field.value,
      field.selectionStart,
      field.selectionEnd,
      option.token,
      option.caret,
    );
    onInsert(text);
    // After React has put the new text in the field, give it focus with the caret in place.
    requestAnimationFrame(() => {
      field.focus();
      field.setSelectionRange(caret, caret);
    });
  }

  function onListKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const last = tokens.length - 1;
    switch (event.key) {
      case "ArrowDown":
        setActive((i) => Math.min(i + 1, last));
        break;
      case "ArrowUp":
        setActive((i) => Math.max(i - 1, 0));
        break;
      case "Home":
        setActive(0);
        break;
      case "End":
        setActive(last);
        break;
      case "Enter":
      case " ": {
        const option = tokens[active];
        if (option) insert(option);
        break;
      }
      case "Escape":
        close(true);
        break;
      case "Tab":
        // Tab leaves the list like any other control; blur closes it.
        return;
      default:
        return;
    }
    event.preventDefault();
    event.stopPropagation();
  }

  function onButtonKeyDown(event: KeyboardEvent<HTMLButtonElement>) {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      show(event.key === "ArrowUp" ? Math.max(tokens.length - 1, 0) : 0);
    }
  }

  if (tokens.length === 0) return null;
  return (
    <div className="relative">
      <Button
        ref={button}
        size="sm"
        variant="ghost"
        className="h-6 px-2 text-xs"
        disabled={disabled}
        id={buttonId}
        aria-describedby={labelId}
        aria-haspopup="listbox"
        aria-expanded={open}
        aria-controls={open ? listId : undefined}
        onClick={() => (open ? close(false) : show())}
        onKeyDown={onButtonKeyDown}
      >
        <span aria-hidden="true" className="font-mono text-zinc-500">
          {"{}"}
        </span>
        Insert token
      </Button>
      {open && (
        <div
          ref={list}
          id={listId}
          role="listbox"
          tabIndex={-1}
          aria-labelledby={buttonId}
          aria-activedescendant={optionId(active)}
          onKeyDown={onListKeyDown}
          onBlur={(event) => {
            if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setOpen(false);
          }}
          className="absolute right-0 z-20 mt-1 max-h-72 w-72 overflow-y-auto rounded-lg border border-zinc-200 bg-white py-1 text-sm shadow-lg focus:outline-2 focus:outline-indigo-600/30"
        >
          {groupTokens(tokens).map(({ group, tokens: items }) => (
            <div key={group} role="group" aria-label={group}>
              <div aria-hidden="true" className="px-3 pt-2 pb-1 text-xs font-semibold text-zinc-500">
                {group}
              </div>
              {items.map((option) => {
                const i = tokens.indexOf(option);
                return (
                  <div
                    key={option.token}
                    id={optionId(i)}
                    role="option"
                    aria-selected={i === active}
                    onMouseDown={(event) => event.preventDefault()}
                    onMouseEnter={() => setActive(i)}
                    onClick={() => insert(option)}
                    className={cn(
                      "flex cursor-pointer items-baseline justify-between gap-3 px-3 py-1.5",
                      i === active ? "bg-indigo-50 text-indigo-900" : "text-zinc-800",
                    )}
                  >
                    <span className="truncate font-mono text-xs">{option.token}</span>
                    <span className="shrink-0 text-xs text-zinc-500">{option.hint}</span>
                  </div>
                );
              })}
            </div>
          ))}
        </div>
      )}
    </div>
  );
}
