"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { useServerAction } from "@/components/ui/hooks/use-server-action";
import { completeTaskAction } from "@/lib/actions/tasks/complete-task";

/** "Mark done" for one open task (editors and admins); the list re-renders without it. */
export function CompleteTaskButton({ taskId, title }: { taskId: string; title: string }) {
  const completeTask = useServerAction(completeTaskAction);
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
        pending={completeTask.pending}
        aria-label={`Mark done: ${title}`}
        onClick={() => {
          setError(null);
          completeTask.run({ taskId }, (result) => {
            if (!result.ok) setError(result.error);
          });
        }}
      >
        Mark done
      </Button>
    </span>
  );
}
