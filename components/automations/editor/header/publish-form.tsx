"use client";

import { useEffect, useId, useMemo, useReducer, useRef, useTransition, type RefObject } from "react";
import { reach } from "@/components/ui/hooks/use-server-action";
import { Button } from "@/components/ui/button";
import { FieldHint, Input, Label } from "@/components/ui/form";
import { getImpactAction } from "@/lib/actions/automations/get-impact";
import { publishAutomationAction } from "@/lib/actions/automations/publish-automation";
import { describeDiff, diffGraphs } from "@/lib/automations/review/diff";
import { FailureNotice } from "../panel/failure-notice";
import type { Graph } from "@/lib/automations/graph/schema";
import type { InFlightPolicy } from "@/lib/automations/lifecycle/policies";
import {
  initialPublishForm,
  mayPublish,
  publishFormReducer,
  publishLead,
  publishName,
} from "./publish-form-state";
import {
  NothingToPublish,
  PublishBacktest,
  PublishChanges,
  PublishDone,
  RunsWaiting,
  type Changes,
} from "./publish-parts";

const NOTE_MAX = 500;

export interface PublishDialogProps {
  automation: {
    id: string;
    name: string;
    version: number;
    status: "draft" | "active" | "paused" | "archived";
    inFlightPolicy: InFlightPolicy;
    activeGraph: Graph | null;
  };
  /** What will be published. */
  draftGraph: Graph;
  /** The draft's name, as edited (a rename is published with the steps); empty falls back to the saved one. */
  draftName?: string;
  /**
   * The draft's steps, name and policy equal the active version's (`draftMatchesActive`): the
   * dialog says there is nothing to publish instead of announcing a new version.
   */
  unchanged?: boolean;
  open: boolean;
  onClose(): void;
  /** The in-flight policy chosen in the dialog (saved with the draft before publishing). */
  onPolicyChange?(policy: InFlightPolicy): void;
  /** The name given in the dialog when the draft had none ("Untitled automation"). */
  onNameChange?(name: string): void;
  /** Saves pending edits first; resolves false if saving failed (then the dialog shows why and does not publish). */
  beforePublish(): Promise<boolean>;
  /**
   * After the server answered yes. `published` is false when the draft matched the active version
   * (nothing new was snapshotted; a paused automation is on again). `message` is what happens to
   * the runs that were waiting, for a notice after the dialog closes.
   */
  onPublished(result: { version: number; published: boolean; message: string }): void;
}

/**
 * The dialog's body, mounted on open: the state in one reducer (`publish-form-state.ts`), the
 * sections in `publish-parts.tsx`; here the two calls to the server and the fields.
 */
export function PublishForm({
  automation,
  draftGraph,
  unchanged = false,
  draftName,
  onClose,
  onPolicyChange,
  onNameChange,
  beforePublish,
  onPublished,
  titleId,
  noteRef,
  busyRef,
}: PublishDialogProps & {
  titleId: string;
  noteRef: RefObject<HTMLTextAreaElement | null>;
  busyRef: RefObject<boolean>;
}) {
  const next = automation.version + 1;
  const draftOrSaved = draftName?.trim() || automation.name;
  const [state, dispatch] = useReducer(publishFormReducer, draftOrSaved, initialPublishForm);
  const { askName, givenName, nameError, note, impact, failure, done } = state;
  const { name, called } = publishName(state, draftOrSaved);
  const nameId = useId();
  const noteId = useId();
  const hintId = useId();
  const [pending, startTransition] = useTransition();
  const closeRef = useRef<HTMLButtonElement>(null);
  const nameRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    busyRef.current = pending;
  }, [pending, busyRef]);

  // The content changed under the focused Publish button; move focus to the way out.
  useEffect(() => {
    if (done) closeRef.current?.focus();
  }, [done]);

  // Read when the dialog opens, so the count is the one right before the person decides, and again
  // when the policy is changed here.
  const policy = automation.inFlightPolicy;
  useEffect(() => {
    let live = true;
    void reach(getImpactAction({ id: automation.id, action: "publish", policy })).then((result) => {
      if (!live) return;
      dispatch({
        type: "impact",
        impact: result.ok
          ? { state: "ready", message: result.data.message, waitingRuns: result.data.waitingRuns }
          : { state: "failed", error: result.error },
      });
    });
    return () => {
      live = false;
    };
  }, [automation.id, policy]);

  const changes = useMemo((): Changes => {
    if (!automation.activeGraph || automation.version === 0) return { kind: "first" };
    const lines = describeDiff(diffGraphs(automation.activeGraph, draftGraph));
    return lines.length === 0 ? { kind: "none" } : { kind: "lines", lines };
  }, [automation.activeGraph, automation.version, draftGraph]);

  function publish() {
    dispatch({ type: "submit" });
    if (!mayPublish(state)) {
      nameRef.current?.focus();
      return;
    }
    startTransition(async () => {
      let saved: boolean;
      try {
        saved = await beforePublish();
      } catch {
        saved = false;
      }
      if (!saved) {
        dispatch({ type: "save-failed" });
        return;
      }
      const result = await reach(
        publishAutomationAction({
          id: automation.id,
          note,
          inFlightPolicy: automation.inFlightPolicy,
          ...(askName ? { name: givenName.trim() } : {}),
        }),
      );
      if (!result.ok) {
        const issues = result.code === "invalid" ? (result.issues ?? []).map((i) => i.message) : [];
        dispatch({ type: "publish-failed", version: next, error: result.error, issues });
        return;
      }
      const outcome = {
        version: result.data.version,
        published: result.data.published,
        message: result.data.message,
      };
      dispatch({ type: "published", done: outcome });
      onPublished(outcome);
    });
  }

  if (unchanged && automation.version > 0)
    return (
      <NothingToPublish
        titleId={titleId}
        version={automation.version}
        paused={automation.status === "paused"}
        onClose={onClose}
      />
    );

  if (done)
    return <PublishDone titleId={titleId} done={done} name={name} closeRef={closeRef} onClose={onClose} />;

  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        publish();
      }}
    >
      <div className="p-6">
        <h2 id={titleId} className="text-base font-semibold">
          Publish version {next}
        </h2>
        <p className="mt-1 text-sm text-zinc-600">
          {publishLead(automation.status, called, automation.version)}
        </p>

        {askName && (
          <div className="mt-5">
            <Label htmlFor={nameId}>Name</Label>
            <Input
              ref={nameRef}
              id={nameId}
              data-first-field
              className="mt-1.5"
              value={givenName}
              maxLength={120}
              aria-required="true"
              disabled={pending}
              aria-invalid={nameError ? true : undefined}
              aria-describedby={`${nameId}-hint`}
              placeholder="What this automation does, e.g. Thank first-time buyers"
              onChange={(event) => {
                dispatch({ type: "name", value: event.target.value });
                onNameChange?.(event.target.value);
              }}
            />
            <FieldHint id={`${nameId}-hint`}>
              {nameError ?? "This automation has no name yet. Name it so you can find it in lists and runs."}
            </FieldHint>
          </div>
        )}

        <div className="mt-5">
          <Label htmlFor={noteId}>Change note</Label>
          <textarea
            ref={noteRef}
            id={noteId}
            value={note}
            onChange={(event) => dispatch({ type: "note", value: event.target.value })}
            maxLength={NOTE_MAX}
            rows={3}
            aria-describedby={hintId}
            disabled={pending}
            className="mt-1.5 block w-full rounded-lg border border-zinc-300 bg-white px-3 py-2 text-sm text-zinc-900 shadow-xs placeholder:text-zinc-400 focus:border-indigo-600 focus:outline-2 focus:outline-offset-0 focus:outline-indigo-600/30 disabled:bg-zinc-50 disabled:text-zinc-500"
            placeholder="What changed, and why"
          />
          <FieldHint id={hintId}>
            Optional. Shown in the version history. {NOTE_MAX - note.length} characters left.
          </FieldHint>
        </div>

        <PublishChanges titleId={titleId} changes={changes} version={automation.version} />

        {automation.version > 0 && (
          <PublishBacktest
            titleId={titleId}
            automationId={automation.id}
            next={next}
            draftGraph={draftGraph}
          />
        )}

        <RunsWaiting
          titleId={titleId}
          impact={impact}
          policy={policy}
          {...(onPolicyChange && automation.version > 0 ? { onPolicyChange } : {})}
          disabled={pending}
        />

        {failure && <FailureNotice failure={failure} className="mt-5" />}
      </div>

      <div className="flex items-center justify-end gap-3 border-t border-zinc-200 px-6 py-4">
        <p role="status" className="sr-only">
          {pending ? "Saving your edits, then publishing…" : ""}
        </p>
        <Button onClick={onClose} disabled={pending}>
          Cancel
        </Button>
        <Button type="submit" variant="primary" pending={pending}>
          Publish
        </Button>
      </div>
    </form>
  );
}
