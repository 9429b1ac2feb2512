"use client";

import { useEffect, useState } from "react";
import { reach } from "@/components/ui/hooks/use-server-action";
import { listVersionsAction } from "@/lib/actions/automations/list-versions";
import type { InFlightPolicy } from "@/lib/automations/lifecycle/policies";

export interface ActiveMeta {
  name: string;
  inFlightPolicy: InFlightPolicy;
}

/**
 * The active version's name and policy (the page's view carries only its steps), for "nothing to
 * publish"; null before it loads, for a flow never published, or when it cannot be read.
 */
export function useActiveMeta(automationId: string, version: number): ActiveMeta | null {
  const [meta, setMeta] = useState<ActiveMeta | null>(null);
  useEffect(() => {
    if (version === 0) return;
    let live = true;
    // Unreachable or refused: unknown, Publish stays enabled and the server decides; nothing to show here.
    void reach(listVersionsAction({ id: automationId })).then((result) => {
      const active = result.ok ? result.data.find((v) => v.version === version) : undefined;
      if (live && active) setMeta({ name: active.name, inFlightPolicy: active.inFlightPolicy });
    });
    return () => {
      live = false;
    };
  }, [automationId, version]);
  return meta;
}
