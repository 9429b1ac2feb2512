"use client";

import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";

/** Unexpected failures inside the admin: keep the shell, say what happened, offer a retry. */
export default function AdminError({
  error,
  reset,
}: {
  error: Error & { digest?: string };
  reset: () => void;
}) {
  return (
    <Card>
      <EmptyState
        title="This page could not load"
        actions={
          <Button variant="primary" onClick={reset}>
            Try again
          </Button>
        }
      >
        <p>Something went wrong on our side. It has been logged; trying again often helps.</p>
        {error.digest && <p className="font-mono text-xs text-zinc-500">Reference: {error.digest}</p>}
      </EmptyState>
    </Card>
  );
}
