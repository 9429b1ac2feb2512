import type { ReactNode } from "react";
import { cn } from "./cn";

export function Card({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <section className={cn("rounded-xl border border-zinc-200 bg-white shadow-xs", className)}>
      {children}
    </section>
  );
}

export interface CardHeaderProps {
  title: ReactNode;
  description?: ReactNode;
  /** Controls shown on the right of the title, such as a button. */
  actions?: ReactNode;
  /** The heading level; choose it so the page outline stays in order. Default 2. */
  level?: 2 | 3;
}

export function CardHeader({ title, description, actions, level = 2 }: CardHeaderProps) {
  const Heading = level === 2 ? "h2" : "h3";
  return (
    <div className="flex flex-wrap items-start justify-between gap-3 border-b border-zinc-200 px-5 py-4">
      <div className="min-w-0">
        <Heading className="text-sm font-semibold text-zinc-900">{title}</Heading>
        {description && <p className="mt-1 text-sm text-zinc-600">{description}</p>}
      </div>
      {actions && <div className="flex shrink-0 items-center gap-2">{actions}</div>}
    </div>
  );
}

export function CardBody({ children, className }: { children: ReactNode; className?: string }) {
  return <div className={cn("px-5 py-4", className)}>{children}</div>;
}
