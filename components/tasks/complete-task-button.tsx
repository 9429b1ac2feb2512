"use client";

import { useState, useTransition } from "react";
import { Button } from "@/components/ui/button";
import { completeTaskAction } from "@/lib/actions/tasks/complete-task";

/** "Mark done" for one open task (editors and admins); the list re-renders without it. */
export function CompleteTaskButton({ taskId, title }: { taskId: string; title: string }) {
  const [pending, startTransition] = useTransition();
  const [error, setError] = useState<string | null>(null);
  return (
    <span className="inline-flex items-center gap-2">
      {error && (
        <span role="alert" className="text-xs text-red-700">
          {error}
        </span>
      )}
      <Button
        size="sm"
        pending={pending}
        aria-label={`Mark done: ${title}`}
        onClick={() =>
          startTransition(async () => {
            setError(null);
            const result = await completeTaskAction({ taskId });
            if (!result.ok) setError(result.error);
          })
        }
      >
        Mark done
      </Button>
    </span>
  );
}
