"use client";

import { usePathname } from "next/navigation";
import { useEffect, useId, useRef, useState, type ReactNode } from "react";
import { cn } from "@/components/ui/cn";

/**
 * The shell's navigation on small screens (below `lg`): a top bar whose Menu button shows and
 * hides `children` (the pages, who is signed in, Sign out) as a panel under it. From `lg` up the
 * button is gone and `children` is the sidebar. The panel closes on navigation and on Escape.
 */
export function ShellMenu({ bar, children }: { bar: ReactNode; children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const pathname = usePathname();
  const [shownPath, setShownPath] = useState(pathname);
  const button = useRef<HTMLButtonElement>(null);
  const panelId = useId();
  if (pathname !== shownPath) {
    setShownPath(pathname);
    setOpen(false);
  }

  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      setOpen(false);
      button.current?.focus();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [open]);

  return (
    <>
      <div className="flex items-center justify-between gap-3 px-4 py-2 lg:flex-col lg:items-stretch lg:px-3 lg:pt-4 lg:pb-3">
        {bar}
        <button
          ref={button}
          type="button"
          aria-expanded={open}
          aria-controls={panelId}
          onClick={() => setOpen((o) => !o)}
          className="inline-flex h-9 shrink-0 items-center gap-2 rounded-lg border border-zinc-300 bg-white px-3 text-sm font-medium text-zinc-900 shadow-sm hover:bg-zinc-50 lg:hidden"
        >
          <svg
            aria-hidden="true"
            viewBox="0 0 20 20"
            className="size-4"
            fill="none"
            stroke="currentColor"
            strokeWidth="1.75"
            strokeLinecap="round"
          >
            {open ? <path d="M5 5l10 10M15 5L5 15" /> : <path d="M3 6h14M3 10h14M3 14h14" />}
          </svg>
          Menu
        </button>
      </div>
      <div id={panelId} className={cn(open ? "flex" : "hidden", "flex-col lg:flex lg:flex-1 lg:min-h-0")}>
        {children}
      </div>
    </>
  );
}
