"use client";

import {
  useEffect,
  useId,
  useRef,
  useState,
  type KeyboardEvent,
  type MouseEvent,
  type ReactNode,
} from "react";
import { buttonClasses, type ButtonSize, type ButtonVariant } from "./button";
import { cn } from "./cn";

/** The look of one row in a `Menu`; items that are not plain buttons (a confirm button) use it too. */
export const menuItemClasses =
  "flex w-full items-center gap-2 rounded-md px-3 py-2 text-left text-sm whitespace-nowrap text-zinc-800 " +
  "hover:bg-zinc-100 focus-visible:bg-zinc-100 focus-visible:outline-none " +
  "disabled:cursor-not-allowed disabled:opacity-50";

function items(menu: HTMLElement | null): HTMLElement[] {
  return menu
    ? [...menu.querySelectorAll<HTMLElement>('[role="menuitem"]')].filter(
        (item) => !(item as HTMLButtonElement).disabled,
      )
    : [];
}

/**
 * A button that opens a list of actions (the WAI-ARIA menu button pattern): Enter, Space or
 * ArrowDown opens it on its first item, arrows and Home/End move between items, Escape or Tab
 * closes it, focus returns to the button. Children are buttons with `role="menuitem"` (use
 * `MenuItem`, or `menuItemClasses` on a button of your own).
 *
 * The list stays mounted (hidden) while closed, so an item that opens a dialog of its own (a
 * confirm button) keeps whatever the dialog started after the menu closes. While such a dialog
 * is open the menu stays open beneath it, since a hidden parent would hide the dialog too, and
 * closes with it.
 */
export function Menu({
  label,
  menuLabel,
  children,
  variant = "secondary",
  size = "sm",
  className,
}: {
  /** The button's text, e.g. "More". */
  label: ReactNode;
  /** The menu's accessible name, e.g. "More actions". */
  menuLabel: string;
  children: ReactNode;
  variant?: ButtonVariant;
  size?: ButtonSize;
  className?: string;
}) {
  const [open, setOpen] = useState(false);
  const wrapper = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const focusOnOpen = useRef<"first" | "last" | null>(null);
  const id = useId();

  function close(refocus: boolean) {
    setOpen(false);
    if (refocus) button.current?.focus();
  }

  useEffect(() => {
    if (!open) return;
    const list = items(menu.current);
    const target = focusOnOpen.current === "last" ? list.at(-1) : list[0];
    target?.focus();
    focusOnOpen.current = null;

    const onPointerDown = (event: PointerEvent) => {
      if (!wrapper.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener("pointerdown", onPointerDown);
    return () => document.removeEventListener("pointerdown", onPointerDown);
  }, [open]);

  // A dialog opened from an item closing (confirmed or cancelled) closes the menu too. `close`
  // does not bubble, so listen while capturing.
  useEffect(() => {
    const element = menu.current;
    if (!element) return;
    const onDialogClose = () => close(true);
    element.addEventListener("close", onDialogClose, true);
    return () => element.removeEventListener("close", onDialogClose, true);
  }, []);

  function openAt(where: "first" | "last") {
    focusOnOpen.current = where;
    setOpen(true);
  }

  function onButtonKeyDown(event: KeyboardEvent<HTMLButtonElement>) {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      openAt(event.key === "ArrowDown" ? "first" : "last");
    }
  }

  function onMenuKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    // Keys inside a dialog an item opened belong to that dialog.
    if ((event.target as HTMLElement).closest("dialog")) return;
    const list = items(menu.current);
    const index = list.indexOf(document.activeElement as HTMLElement);
    const move = (to: number) => {
      event.preventDefault();
      list[(to + list.length) % list.length]?.focus();
    };
    if (event.key === "ArrowDown") move(index + 1);
    else if (event.key === "ArrowUp") move(index - 1);
    else if (event.key === "Home") move(0);
    else if (event.key === "End") move(list.length - 1);
    else if (event.key === "Escape") {
      event.preventDefault();
      close(true);
    } else if (event.key === "Tab") close(false);
  }

  function onMenuClick(event: MouseEvent<HTMLDivElement>) {
    if ((event.target as HTMLElement).closest("dialog")) return;
    if (!(event.target as HTMLElement).closest('[role="menuitem"]')) return;
    // An item that opened a dialog keeps the menu open until the dialog closes.
    if (menu.current?.querySelector("dialog[open]")) return;
    close(true);
  }

  return (
    <div ref={wrapper} className={cn("relative", className)}>
      <button
        ref={button}
        type="button"
        id={`${id}-button`}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={`${id}-menu`}
        className={buttonClasses(variant, size)}
        onClick={() => (open ? close(false) : openAt("first"))}
        onKeyDown={onButtonKeyDown}
      >
        {label}
        <svg aria-hidden="true" viewBox="0 0 16 16" className="size-3.5" fill="currentColor">
          <path d="M4.2 6.2a.75.75 0 0 1 1.06 0L8 8.94l2.74-2.74a.75.75 0 1 1 1.06 1.06l-3.27 3.27a.75.75 0 0 1-1.06 0L4.2 7.26a.75.75 0 0 1 0-1.06Z" />
        </svg>
      </button>
      <div
        ref={menu}
        id={`${id}-menu`}
        role="menu"
        aria-label={menuLabel}
        hidden={!open}
        onKeyDown={onMenuKeyDown}
        onClick={onMenuClick}
        className="absolute top-full right-0 z-30 mt-1 min-w-48 rounded-lg border border-zinc-200 bg-white p-1 shadow-lg"
      >
        {children}
      </div>
    </div>
  );
}

/** One action in a `Menu`. */
export function MenuItem({
  children,
  onSelect,
  disabled = false,
  tone = "default",
}: {
  children: ReactNode;
  onSelect(): void;
  disabled?: boolean;
  tone?: "default" | "danger";
}) {
  return (
    <button
      type="button"
      role="menuitem"
      tabIndex={-1}
      disabled={disabled}
      onClick={onSelect}
      className={cn(menuItemClasses, tone === "danger" && "text-red-700")}
    >
      {children}
    </button>
  );
}
