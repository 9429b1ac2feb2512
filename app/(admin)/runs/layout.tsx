import type { ReactNode } from "react";
import { Providers } from "@/components/providers";

/**
 * Run pages poll with React Query, so they get its client here rather than from the admin layout:
 * pages without live data (the flow editor above all) do not load it (issue 13, editor JS).
 * The same two lines sit in every layout whose pages use React Query: approvals, runs, waiting,
 * and an automation's runs and waiting list.
 */
export default function RunsLayout({ children }: { children: ReactNode }) {
  return <Providers>{children}</Providers>;
}
