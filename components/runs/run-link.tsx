import Link from "next/link";
import type { ReactNode } from "react";
import { cn } from "@/components/ui/cn";
import { shortRunId } from "@/lib/automations/runs/short-id";

/** A link to a run's page, shown by its short id (or `children`). */
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
      {children ?? shortRunId(runId)}
    </Link>
  );
}

/**
 * A run's full id with its short id (the end every list shows) stressed, so the two can be matched
 * by eye and the whole id still copied for the API.
 */
export function FullRunId({ runId, className }: { runId: string; className?: string }) {
  const short = shortRunId(runId);
  return (
    <span className={cn("font-mono text-xs break-all", className)}>
      <span className="text-zinc-500">{runId.slice(0, runId.length - short.length)}</span>
      <strong className="font-semibold text-zinc-900">{runId.slice(-short.length)}</strong>
    </span>
  );
}
