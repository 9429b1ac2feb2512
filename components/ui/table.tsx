import type { ComponentProps, ReactNode } from "react";
import { cn } from "./cn";

/**
 * Table pieces. `Table` scrolls sideways on narrow screens instead of squeezing columns (or
 * widening the page), and takes a caption so screen readers announce what the table lists.
 */
export function Table({
  caption,
  children,
  className,
}: {
  caption: string;
  children: ReactNode;
  className?: string;
}) {
  return (
    // `relative` keeps absolutely placed cells' content (an `sr-only` label) inside the scroller:
    // without it they are placed against the page and widen it on a phone.
    <div className={cn("relative overflow-x-auto", className)}>
      <table className="w-full border-collapse text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        {children}
      </table>
    </div>
  );
}

export function THead({ children }: { children: ReactNode }) {
  return <thead className="border-b border-zinc-200 bg-zinc-50/80">{children}</thead>;
}

export function TBody({ children }: { children: ReactNode }) {
  return <tbody className="divide-y divide-zinc-100">{children}</tbody>;
}

export function TR({ className, ...props }: ComponentProps<"tr">) {
  return <tr className={cn("align-middle", className)} {...props} />;
}

export function TH({
  className,
  align = "left",
  ...props
}: ComponentProps<"th"> & { align?: "left" | "right" }) {
  return (
    <th
      scope="col"
      className={cn(
        "px-4 py-2.5 text-xs font-medium tracking-wide whitespace-nowrap text-zinc-500 uppercase first:pl-5 last:pr-5",
        align === "right" && "text-right",
        className,
      )}
      {...props}
    />
  );
}

export function TD({
  className,
  align = "left",
  ...props
}: ComponentProps<"td"> & { align?: "left" | "right" }) {
  return (
    <td
      className={cn(
        "px-4 py-3 text-zinc-700 first:pl-5 last:pr-5",
        align === "right" && "text-right tabular-nums",
        className,
      )}
      {...props}
    />
  );
}
