import { cn } from "./cn";

export type BadgeTone = "neutral" | "success" | "warning" | "danger" | "info" | "accent" | "quiet";

const tones: Record<BadgeTone, { badge: string; dot: string }> = {
  neutral: { badge: "bg-zinc-100 text-zinc-700 ring-zinc-500/20", dot: "bg-zinc-400" },
  success: { badge: "bg-emerald-50 text-emerald-800 ring-emerald-600/20", dot: "bg-emerald-500" },
  warning: { badge: "bg-amber-50 text-amber-800 ring-amber-600/25", dot: "bg-amber-500" },
  danger: { badge: "bg-red-50 text-red-800 ring-red-600/20", dot: "bg-red-500" },
  info: { badge: "bg-sky-50 text-sky-800 ring-sky-600/20", dot: "bg-sky-500" },
  accent: { badge: "bg-indigo-50 text-indigo-800 ring-indigo-600/20", dot: "bg-indigo-500" },
  /** Something that happened without effect ("Nothing to do"): white, a hollow dot. */
  quiet: { badge: "bg-white text-stone-700 ring-stone-400/50", dot: "bg-white ring-1 ring-stone-500" },
};

export interface BadgeProps {
  /** The words of the badge. Required: colour alone never carries the meaning. */
  children: string;
  /** Default "neutral". */
  tone?: BadgeTone;
  /** Show a coloured dot before the text (status badges). Default false. */
  dot?: boolean;
  className?: string;
}

export function Badge({ children, tone = "neutral", dot = false, className }: BadgeProps) {
  const t = tones[tone];
  return (
    <span
      className={cn(
        "inline-flex items-center gap-1.5 rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap ring-1 ring-inset",
        t.badge,
        className,
      )}
    >
      {dot && <span aria-hidden="true" className={cn("size-1.5 rounded-full", t.dot)} />}
      {children}
    </span>
  );
}
