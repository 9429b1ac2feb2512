"use client";

import type { ReadyIssue } from "@/lib/automations/review/validate";

/**
 * The ready issues of the draft as you edit: each names its step and focuses it on click. Publish
 * stays disabled while any remain. With none, the editor shows `PublishState` instead.
 */
export function ReadyIssuesPanel({
  issues,
  labelOf,
  onFocusNode,
}: {
  issues: ReadyIssue[];
  labelOf(nodeId: string): string;
  onFocusNode(nodeId: string): void;
}) {
  return (
    <section aria-labelledby="ready-issues-title">
      <h2 id="ready-issues-title" className="text-sm font-semibold text-zinc-900">
        {issues.length === 1
          ? "1 thing to fix before publishing"
          : `${issues.length} things to fix before publishing`}
      </h2>
      <ul className="mt-2 space-y-1.5">
        {issues.map((issue, index) => (
          <li key={`${issue.nodeId ?? issue.edgeId ?? "flow"}-${index}`}>
            {issue.nodeId ? (
              <button
                type="button"
                onClick={() => onFocusNode(issue.nodeId!)}
                className="w-full rounded-md border border-red-200 bg-red-50 px-3 py-2 text-left text-sm text-red-900 hover:border-red-300 focus-visible:outline-2 focus-visible:outline-indigo-600"
              >
                <span className="block text-xs font-medium text-red-700">{labelOf(issue.nodeId)}</span>
                {issue.message}
              </button>
            ) : (
              <p className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-900">
                {issue.message}
              </p>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
