import type { NodeCategory } from "@/lib/automations/nodes/types";

/**
 * One look per node category, shared by the palette and the canvas: triggers indigo, conditions
 * amber (reserved for them), actions sky, timing steps zinc with a clock.
 */
export const CATEGORY_STYLES: Record<
  NodeCategory,
  { name: string; chrome: string; icon: string; band: string }
> = {
  trigger: {
    name: "Trigger",
    chrome: "border-indigo-300",
    icon: "text-indigo-600",
    band: "bg-indigo-50 text-indigo-800",
  },
  condition: {
    name: "Condition",
    chrome: "border-amber-300",
    icon: "text-amber-600",
    band: "bg-amber-50 text-amber-900",
  },
  action: { name: "Action", chrome: "border-sky-300", icon: "text-sky-600", band: "bg-sky-50 text-sky-900" },
  wait: {
    name: "Timing",
    chrome: "border-zinc-300",
    icon: "text-zinc-500",
    band: "bg-zinc-100 text-zinc-700",
  },
};

const PATHS: Record<NodeCategory, React.ReactNode> = {
  trigger: <path d="M11 2 4 11h5l-1 7 7-9h-5l1-7Z" />,
  condition: (
    <>
      <path d="M10 2.5 17.5 10 10 17.5 2.5 10 10 2.5Z" />
    </>
  ),
  action: (
    <>
      <circle cx="10" cy="10" r="7" />
      <path d="m8 7 5 3-5 3V7Z" />
    </>
  ),
  wait: (
    <>
      <circle cx="10" cy="10" r="7" />
      <path d="M10 6v4l2.5 2" />
    </>
  ),
};

/** The category's icon (a bolt, a diamond, a play button, a clock). Decorative. */
export function CategoryIcon({ category, className }: { category: NodeCategory; className?: string }) {
  return (
    <svg
      viewBox="0 0 20 20"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.6"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      className={className}
    >
      {PATHS[category]}
    </svg>
  );
}
