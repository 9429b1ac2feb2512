"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import { saveDraftAction } from "@/lib/actions/automations/save-draft";
import type { Graph } from "@/lib/automations/graph/schema";
import type { InFlightPolicy } from "@/lib/automations/lifecycle/policies";
import { HTTP_REQUEST_TYPE } from "@/lib/automations/nodes/http-request/http-request.type";
import { WEBHOOK_TRIGGER } from "@/lib/automations/nodes/triggers/trigger-types";
import { plainSecretHeaders } from "@/lib/credentials/kinds";

export interface DraftPayload {
  graph: Graph;
  name: string;
  inFlightPolicy: InFlightPolicy;
}

export type SaveState =
  | { kind: "saved"; at: string | null }
  | { kind: "unsaved" }
  | { kind: "saving" }
  | { kind: "error"; message: string }
  | { kind: "conflict"; message: string };

const DEBOUNCE_MS = 700;
/**
 * While a step holds a secret typed in plain (an `Authorization` header, a webhook secret), the
 * save that stores it as a credential waits longer, so a secret being typed is not stored half
 * written. Publishing and leaving still save at once.
 */
const SECRET_DEBOUNCE_MS = 5_000;

function holdsTypedSecret(graph: Graph): boolean {
  return graph.nodes.some(
    (node) =>
      (node.type === WEBHOOK_TRIGGER &&
        typeof node.params.secret === "string" &&
        node.params.secret !== "") ||
      (node.type === HTTP_REQUEST_TYPE && plainSecretHeaders(node.params.headers).length > 0),
  );
}

/**
 * Saves the draft a moment after the last edit, one request at a time, with the revision it
 * started from: if another tab saved in between, the server answers 409 and autosave stops with
 * a conflict instead of overwriting someone's work. `flush()` saves now (before publishing).
 */
export function useAutosave(options: {
  id: string;
  enabled: boolean;
  payload: DraftPayload;
  revision: number;
  savedAt: string;
  /**
   * The save stored typed-in secrets as credentials: the saved params of those steps, and the
   * graph that was sent, so the editor adopts them only where nothing changed since.
   */
  onSecretsMoved?(moved: Record<string, Record<string, unknown>>, sent: Graph): void;
}) {
  const { id, enabled, payload } = options;
  const onSecretsMoved = useRef(options.onSecretsMoved);
  useEffect(() => {
    onSecretsMoved.current = options.onSecretsMoved;
  });
  const key = JSON.stringify(payload);
  const savedKey = useRef(key);
  const revision = useRef(options.revision);
  const inFlight = useRef<Promise<boolean> | null>(null);
  const latest = useRef({ key, payload });
  useEffect(() => {
    latest.current = { key, payload };
  });
  const [state, setState] = useState<SaveState>({ kind: "saved", at: options.savedAt });
  const stopped = state.kind === "conflict";

  const save = useCallback(async (): Promise<boolean> => {
    if (inFlight.current) await inFlight.current;
    const { key: currentKey, payload: current } = latest.current;
    if (currentKey === savedKey.current) return true;
    setState({ kind: "saving" });
    const request = saveDraftAction({ id, baseRevision: revision.current, ...current }).then((result) => {
      if (result.ok) {
        revision.current = result.data.draftRevision;
        savedKey.current = currentKey;
        if (Object.keys(result.data.movedSecrets).length > 0)
          onSecretsMoved.current?.(result.data.movedSecrets, current.graph);
        setState(
          latest.current.key === currentKey
            ? { kind: "saved", at: result.data.updatedAt }
            : { kind: "unsaved" },
        );
        return true;
      }
      setState(
        result.code === "conflict"
          ? { kind: "conflict", message: result.error }
          : { kind: "error", message: result.error },
      );
      return false;
    });
    inFlight.current = request;
    try {
      return await request;
    } finally {
      inFlight.current = null;
    }
  }, [id]);

  useEffect(() => {
    if (!enabled || stopped || key === savedKey.current) return;
    setState((s) => (s.kind === "saving" ? s : { kind: "unsaved" }));
    const delay = holdsTypedSecret(latest.current.payload.graph) ? SECRET_DEBOUNCE_MS : DEBOUNCE_MS;
    const timer = setTimeout(() => void save(), delay);
    return () => clearTimeout(timer);
  }, [key, enabled, stopped, save]);

  // Leaving with unsaved edits asks first (not after a conflict: reloading is the way out).
  useEffect(() => {
    if (!enabled || stopped || key === savedKey.current) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [key, enabled, stopped]);

  const flush = useCallback(async () => (stopped ? false : save()), [save, stopped]);
  return { state, flush };
}
