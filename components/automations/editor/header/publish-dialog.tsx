"use client";

import { reach } from "@/components/ui/hooks/use-server-action";
import { useEffect, useId, useMemo, useRef, useState, useTransition, type RefObject } from "react";
import { Button } from "@/components/ui/button";
import { FieldHint, Input, Label } from "@/components/ui/form";
import { Notice } from "@/components/ui/notice";
import { getImpactAction } from "@/lib/actions/automations/get-impact";
import { publishAutomationAction } from "@/lib/actions/automations/publish-automation";
import { describeDiff, diffGraphs } from "@/lib/automations/review/diff";
import type { Graph } from "@/lib/automations/graph/schema";
import { needsName } from "@/lib/automations/editor/names";
import type { InFlightPolicy } from "@/lib/automations/lifecycle/policies";
import { Backtest } from "../panel/backtest";
import { FailureNotice, type Failure } from "../panel/failure-notice";
import { PolicyChoice, WAITS_KEEP_THEIR_TIME } from "./policy-choice";

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

const NOTE_MAX = 500;

/**
 * "Publish version N+1": a change note, what changes in the steps, what happens to the runs
 * waiting right now, then Publish. A native modal `<dialog>`: focus moves in (to the note) and
 * stays in, the page behind is inert, Escape closes, except while publishing, so the answer is
 * never lost. The body mounts on open, so every opening starts fresh.
 */
export function PublishDialog(props: PublishDialogProps) {
  const { open, onClose } = props;
  const dialog = useRef<HTMLDialogElement>(null);
  const note = useRef<HTMLTextAreaElement>(null);
  const busy = useRef(false);
  const titleId = useId();

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) {
      element.showModal();
      // The name first when one is asked for, else the note.
      (element.querySelector<HTMLElement>("[data-first-field]") ?? note.current)?.focus();
    } else if (!open && element.open) {
      element.close();
    }
  }, [open]);

  return (
    <dialog
      ref={dialog}
      aria-labelledby={titleId}
      onCancel={(event) => {
        if (busy.current) event.preventDefault();
      }}
      onClose={() => {
        // Escape (or a form with method="dialog") closed it; tell the owner, who holds `open`.
        if (open) onClose();
      }}
      className="m-auto max-h-[calc(100dvh-2rem)] w-[calc(100%-2rem)] max-w-lg overflow-y-auto rounded-xl border border-zinc-200 bg-white p-0 text-left text-zinc-900 shadow-xl backdrop:bg-zinc-900/30"
    >
      {open && <PublishForm {...props} titleId={titleId} noteRef={note} busyRef={busy} />}
    </dialog>
  );
}

type Impact =
  | { state: "loading" }
  | { state: "ready"; message: string; waitingRuns: number }
  | { state: "failed"; error: string };

type Done = { version: number; published: boolean; message: string };

function PublishForm({
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
  // An unnamed draft is named here before it is published ("Untitled automation" is no name).
  const [askName] = useState(() => needsName(draftOrSaved));
  const [givenName, setGivenName] = useState("");
  const [nameError, setNameError] = useState<string | null>(null);
  const name = askName ? givenName.trim() || draftOrSaved : draftOrSaved;
  // Until a name is typed, the placeholder one is not said back: "this automation".
  const called = askName && !givenName.trim() ? "this automation" : `'${name}'`;
  const nameId = useId();
  const noteId = useId();
  const hintId = useId();
  const [text, setText] = useState("");
  const [impact, setImpact] = useState<Impact>({ state: "loading" });
  const [failure, setFailure] = useState<Failure | null>(null);
  const [done, setDone] = useState<Done | null>(null);
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
      setImpact(
        result.ok
          ? { state: "ready", message: result.data.message, waitingRuns: result.data.waitingRuns }
          : { state: "failed", error: result.error },
      );
    });
    return () => {
      live = false;
    };
  }, [automation.id, policy]);

  const changes = useMemo(() => {
    if (!automation.activeGraph || automation.version === 0) return { kind: "first" as const };
    const lines = describeDiff(diffGraphs(automation.activeGraph, draftGraph));
    return lines.length === 0 ? { kind: "none" as const } : { kind: "lines" as const, lines };
  }, [automation.activeGraph, automation.version, draftGraph]);

  function publish() {
    setFailure(null);
    if (askName && needsName(givenName)) {
      setNameError("Give the automation a name before publishing it.");
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
        setFailure({
          title: "Your latest edits could not be saved",
          text: "Nothing was published. The editor shows why the save failed; fix that and publish again.",
          issues: [],
        });
        return;
      }
      const result = await reach(
        publishAutomationAction({
          id: automation.id,
          note: text,
          inFlightPolicy: automation.inFlightPolicy,
          ...(askName ? { name: givenName.trim() } : {}),
        }),
      );
      if (!result.ok) {
        // Ready issues (422) come one per problem; the message repeats them, so list them instead.
        const issues = result.code === "invalid" ? (result.issues ?? []).map((i) => i.message) : [];
        setFailure({
          title: `Version ${next} was not published`,
          text: issues.length > 0 ? fixSentence(issues.length) : result.error,
          issues,
        });
        return;
      }
      const outcome = {
        version: result.data.version,
        published: result.data.published,
        message: result.data.message,
      };
      setDone(outcome);
      onPublished(outcome);
    });
  }

  if (unchanged && automation.version > 0) {
    return (
      <div className="p-6">
        <h2 id={titleId} className="text-base font-semibold">
          Nothing to publish
        </h2>
        <p className="mt-1 text-sm text-zinc-600">
          Nothing to publish: the draft is the same as version {automation.version}.
          {automation.status === "paused" && " Turn the automation on to run it again."}
        </p>
        <div className="mt-6 flex justify-end">
          <Button variant="primary" onClick={onClose}>
            Close
          </Button>
        </div>
      </div>
    );
  }

  if (done) {
    return (
      <div className="p-6">
        <h2 id={titleId} className="text-base font-semibold">
          {done.published ? `Version ${done.version} is published` : "Nothing new to publish"}
        </h2>
        <Notice tone={done.published ? "success" : "info"} className="mt-4">
          <p>
            {done.published
              ? `'${name}' now runs version ${done.version}.`
              : `Version ${done.version} already has these steps, so no new version was made. The automation is on.`}
          </p>
          <p className="mt-1">{done.message}</p>
        </Notice>
        <div className="mt-6 flex justify-end">
          <Button ref={closeRef} variant="primary" onClick={onClose}>
            Close
          </Button>
        </div>
      </div>
    );
  }

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
          {automation.status === "active"
            ? `${capitalised(called)} switches from version ${automation.version} to version ${next}.`
            : automation.status === "paused"
              ? `${capitalised(called)} is paused; publishing turns it on again with version ${next}.`
              : `Publishing turns ${called} on: new events start runs.`}
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
                setGivenName(event.target.value);
                setNameError(null);
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
            value={text}
            onChange={(event) => setText(event.target.value)}
            maxLength={NOTE_MAX}
            rows={3}
            aria-describedby={hintId}
            disabled={pending}
            className="mt-1.5 block w-full rounded-lg border border-zinc-300 bg-white px-3 py-2 text-sm text-zinc-900 shadow-xs placeholder:text-zinc-400 focus:border-indigo-600 focus:outline-2 focus:outline-offset-0 focus:outline-indigo-600/30 disabled:bg-zinc-50 disabled:text-zinc-500"
            placeholder="What changed, and why"
          />
          <FieldHint id={hintId}>
            Optional. Shown in the version history. {NOTE_MAX - text.length} characters left.
          </FieldHint>
        </div>

        <section aria-labelledby={`${titleId}-changes`} className="mt-5">
          <h3 id={`${titleId}-changes`} className="text-sm font-medium text-zinc-800">
            What changes
          </h3>
          {changes.kind === "first" && (
            <p className="mt-1 text-sm text-zinc-600">This is the first version.</p>
          )}
          {changes.kind === "none" && (
            <p className="mt-1 text-sm text-zinc-600">
              No changes to the steps since version {automation.version}.
            </p>
          )}
          {changes.kind === "lines" && (
            <ul className="mt-1.5 list-disc space-y-1 pl-5 text-sm text-zinc-700">
              {changes.lines.map((line, i) => (
                <li key={`${i}-${line}`}>{line}</li>
              ))}
            </ul>
          )}
        </section>

        {automation.version > 0 && (
          <section aria-labelledby={`${titleId}-backtest`} className="mt-5">
            <h3 id={`${titleId}-backtest`} className="text-sm font-medium text-zinc-800">
              On real runs
            </h3>
            <p className="mt-1 mb-2 text-sm text-zinc-600">
              What version {next} would have done on the latest runs, with nothing sent.
            </p>
            <Backtest automationId={automation.id} getGraph={() => draftGraph} />
          </section>
        )}

        <section aria-labelledby={`${titleId}-waiting`} className="mt-5">
          <h3 id={`${titleId}-waiting`} className="text-sm font-medium text-zinc-800">
            Runs waiting now
          </h3>
          <p className="mt-1 text-sm text-zinc-600" aria-live="polite" data-testid="publish-impact">
            {impact.state === "loading" && "Checking the runs that are waiting…"}
            {impact.state === "ready" && impact.message}
            {impact.state === "failed" && `Could not check the runs that are waiting: ${impact.error}`}
          </p>
          {impact.state === "ready" && impact.waitingRuns > 0 && (
            <p className="mt-1 text-sm text-zinc-600" data-testid="waits-keep-time">
              {WAITS_KEEP_THEIR_TIME}
            </p>
          )}
          {onPolicyChange && automation.version > 0 && (
            <PolicyChoice
              legend="When runs that are waiting wake up"
              value={policy}
              onChange={onPolicyChange}
              disabled={pending}
            />
          )}
        </section>

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

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function fixSentence(count: number): string {
  return count === 1 ? "Fix this first:" : `Fix these ${count} things first:`;
}
