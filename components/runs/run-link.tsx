import Link from "next/link";
import type { ReactNode } from "react";
import { cn } from "@/components/ui/cn";

/** A link to a run's page, shown by the first 8 characters of its id (or `children`). */
export function RunLink({
  runId,
  className,
  children,
}: {
  runId: string;
  className?: string;
  children?: ReactNode;
}) {
  return (
    <Link href={`/runs/${runId}`} className={cn("font-mono underline-offset-2 hover:underline", className)}>
      {children ?? runId.slice(0, 8)}
    </Link>
  );
}
