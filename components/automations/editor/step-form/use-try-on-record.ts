"use client";

import { useId, useState, useTransition } from "react";
import { reach } from "@/components/ui/hooks/use-server-action";
import type { ActionResult } from "@/lib/actions/action";
import type { TriggerDomain } from "@/lib/automations/nodes/types";
import { isDomain, type Domain } from "@/lib/domains/domains";
import type { EntityOption } from "../panel/record-picker";

/** The record a try is about: one of the shop's, or none (a trigger whose runs are about no record). */
export type TryTarget = { domain: Domain; entityId: string } | Record<string, never>;

/**
 * "Try it on a record", as the AI step ("Try with the model") and the code step ("Run on a
 * record") offer it: a section opened by a button, a record chosen with the dry run's picker,
 * one request about it, and its answer or why it failed (the server's words, or that it could
 * not be reached).
 */
export function useTryOnRecord<T>(triggerDomain: TriggerDomain | null) {
  const domain = triggerDomain && isDomain(triggerDomain) ? triggerDomain : null;
  const regionId = useId();
  const headingId = useId();
  const [open, setOpen] = useState(false);
  const [record, setRecord] = useState<EntityOption | null>(null);
  const [result, setResult] = useState<T | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();

  /** Asks `ask` about the chosen record; `onResult` sees an answer that came back. */
  function run(ask: (target: TryTarget) => Promise<ActionResult<T>>, onResult?: (data: T) => void) {
    setFailure(null);
    startTransition(async () => {
      const answer = await reach(ask(domain && record ? { domain, entityId: record.id } : {}));
      if (!answer.ok) {
        setResult(null);
        setFailure(answer.error);
        return;
      }
      setResult(answer.data);
      onResult?.(answer.data);
    });
  }

  return {
    domain,
    regionId,
    headingId,
    open,
    toggle: () => setOpen((value) => !value),
    record,
    setRecord,
    /** A record is needed (the trigger has records) and none is chosen yet. */
    needsRecord: domain !== null && record === null,
    result,
    failure,
    pending,
    run,
  };
}
