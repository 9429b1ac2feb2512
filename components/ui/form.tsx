import type { ComponentProps } from "react";
import { cn } from "./cn";

const control =
  "block rounded-lg border border-zinc-300 bg-white px-3 text-sm text-zinc-900 shadow-xs " +
  "placeholder:text-zinc-400 focus:border-indigo-600 focus:outline-2 focus:outline-offset-0 focus:outline-indigo-600/30 " +
  "disabled:cursor-not-allowed disabled:bg-zinc-50 disabled:text-zinc-500 aria-invalid:border-red-500";

export function Label({ className, ...props }: ComponentProps<"label">) {
  return <label className={cn("block text-sm font-medium text-zinc-800", className)} {...props} />;
}

export type ControlSize = "sm" | "md";

const heights: Record<ControlSize, string> = { sm: "h-8", md: "h-10" };

interface ControlProps {
  /** Default "md"; "sm" matches small buttons in table rows. */
  controlSize?: ControlSize;
  /** Fill the container's width. Default true; pass false and a width class to size it yourself. */
  fullWidth?: boolean;
}

export function Input({
  className,
  controlSize = "md",
  fullWidth = true,
  ...props
}: ComponentProps<"input"> & ControlProps) {
  return <input className={cn(control, heights[controlSize], fullWidth && "w-full", className)} {...props} />;
}

export function Select({
  className,
  controlSize = "md",
  fullWidth = true,
  ...props
}: ComponentProps<"select"> & ControlProps) {
  return (
    <select
      className={cn(control, heights[controlSize], "pr-8", fullWidth && "w-full", className)}
      {...props}
    />
  );
}

/** A multi-line text field; `rows` default 3. */
export function Textarea({ className, rows = 3, ...props }: ComponentProps<"textarea">) {
  return <textarea rows={rows} className={cn(control, "w-full py-2", className)} {...props} />;
}

/** Help text under a field; give it an id and point the control's `aria-describedby` at it. */
export function FieldHint({ className, ...props }: ComponentProps<"p">) {
  return <p className={cn("mt-1.5 text-xs text-zinc-500", className)} {...props} />;
}
