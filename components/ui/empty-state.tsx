import type { ReactNode } from "react";
import { cn } from "./cn";

export interface EmptyStateProps {
  title: string;
  /** What this place will hold and how it fills up: teach, don't just say "nothing here". */
  children?: ReactNode;
  /** A decorative picture above the title. */
  illustration?: ReactNode;
  /** Real next steps (links or buttons that work). */
  actions?: ReactNode;
  className?: string;
}

export function EmptyState({ title, children, illustration, actions, className }: EmptyStateProps) {
  return (
    <div className={cn("mx-auto flex max-w-xl flex-col items-center px-6 py-12 text-center", className)}>
      {illustration && (
        <div aria-hidden="true" className="mb-5">
          {illustration}
        </div>
      )}
      <h2 className="text-base font-semibold text-zinc-900">{title}</h2>
      {children && <div className="mt-2 space-y-3 text-sm leading-6 text-zinc-600">{children}</div>}
      {actions && <div className="mt-6 flex flex-wrap justify-center gap-3">{actions}</div>}
    </div>
  );
}
