"use client";

import { reach, unreachable } from "@/components/ui/hooks/use-server-action";
import { useEffect, useId, useMemo, useState, useTransition } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { ConfirmButton } from "@/components/ui/confirm-dialog";
import { Notice, type NoticeTone } from "@/components/ui/notice";
import { RelativeTime } from "@/components/ui/relative-time";
import { getImpactAction } from "@/lib/actions/automations/get-impact";
import { listVersionsAction } from "@/lib/actions/automations/list-versions";
import { revertVersionAction } from "@/lib/actions/automations/revert-version";
import { diffGraphs } from "@/lib/automations/review/diff";
import type { Graph } from "@/lib/automations/graph/schema";
import { POLICY_CHOICES, type InFlightPolicy } from "@/lib/automations/lifecycle/policies";
import { PolicyChoice, WAITS_KEEP_THEIR_TIME } from "../header/policy-choice";
import { diffEntries, previousVersion, stepCount, type DiffEntry } from "./panel-text";

export interface VersionsPanelProps {
  automationId: string;
  /** The active version. */
  currentVersion: number;
  /** Editor or admin: may revert. */
  canEdit: boolean;
  /** The version shown read-only on the canvas, or null (the draft). */
  viewing: number | null;
  /** Show a version read-only on the canvas; null = back to the draft. */
  onView(version: { version: number; graph: Graph } | null): void;
  onReverted(result: { version: number }): void;
}

type ListResult = Awaited<ReturnType<typeof listVersionsAction>>;
/** One published version as the list action returns it. */
export type Version = Extract<ListResult, { ok: true }>["data"][number];

type Loaded = { key: string } & ({ ok: true; versions: Version[] } | { ok: false; error: string });

/** What reverting to each version would do to the runs waiting now, read as its dialog opens. */
type Impacts = Partial<Record<number, { message: string; waitingRuns: number }>>;

/**
 * The automation's published versions, newest first: who published each and when, its note, and
 * the active one marked. "View" shows a version read-only on the canvas, with what it changed
 * against the version before it. Editors can revert to an older version: that publishes its steps
 * as a new version (history stays append-only) after saying what happens to the waiting runs.
 */
export function VersionsPanel({
  automationId,
  currentVersion,
  canEdit,
  viewing,
  onView,
  onReverted,
}: VersionsPanelProps) {
  const [reloads, setReloads] = useState(0);
  const key = `${automationId}:${currentVersion}:${reloads}`;
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [impacts, setImpacts] = useState<Impacts>({});
  // The policy each revert dialog will publish with: the old version's unless changed there.
  const [choices, setChoices] = useState<Partial<Record<number, InFlightPolicy>>>({});
  const [notice, setNotice] = useState<{ tone: NoticeTone; title: string; text: string } | null>(null);
  const [reverting, setReverting] = useState<number | null>(null);
  const [pending, startTransition] = useTransition();
  const headingId = useId();

  // Reloads when the active version changes (a publish or a revert elsewhere) or on "Try again".
  useEffect(() => {
    let live = true;
    void reach(listVersionsAction({ id: automationId })).then((result) => {
      if (!live) return;
      setLoaded(
        result.ok ? { key, ok: true, versions: result.data } : { key, ok: false, error: result.error },
      );
    });
    return () => {
      live = false;
    };
  }, [automationId, key]);

  const versions = useMemo(() => (loaded?.ok ? loaded.versions : []), [loaded]);
  const currentPolicy = versions.find((v) => isActive(v, currentVersion))?.inFlightPolicy ?? null;

  // The sentence a revert dialog shows, read as it opens: which waiting runs the old steps rescue
  // (they started on them) and which follow that version's policy.
  function loadImpact(version: number, policy: InFlightPolicy) {
    setImpacts((known) => ({ ...known, [version]: undefined }));
    void reach(getImpactAction({ id: automationId, action: "publish", version, policy })).then((result) =>
      setImpacts((known) => ({
        ...known,
        [version]: result.ok
          ? { message: result.data.message, waitingRuns: result.data.waitingRuns }
          : { message: `Could not check: ${result.error}`, waitingRuns: 0 },
      })),
    );
  }

  function choosePolicy(version: number, policy: InFlightPolicy) {
    setChoices((known) => ({ ...known, [version]: policy }));
    loadImpact(version, policy);
  }

  function revert(version: Version) {
    setNotice(null);
    setReverting(version.version);
    startTransition(async () => {
      const result = await reach(
        revertVersionAction({
          id: automationId,
          version: version.version,
          inFlightPolicy: choices[version.version] ?? version.inFlightPolicy,
        }),
      );
      setReverting(null);
      if (!result.ok) {
        setNotice({
          tone: "error",
          title: `Could not revert to version ${version.version}`,
          text: unreachable(result) ? `${result.error} Nothing was changed.` : result.error,
        });
        return;
      }
      setNotice({
        tone: "success",
        title: `Version ${result.data.version} is published`,
        text: `It has version ${version.version}'s steps. The draft has them too.`,
      });
      setReloads((n) => n + 1);
      onReverted({ version: result.data.version });
    });
  }

  const stale = loaded !== null && loaded.key !== key;

  return (
    <section aria-labelledby={headingId} className="space-y-3">
      <div className="flex items-baseline justify-between gap-2">
        <h2 id={headingId} className="text-sm font-semibold text-zinc-900">
          Version history
        </h2>
        <p role="status" className="text-xs text-zinc-500">
          {loaded === null || stale ? "Loading…" : ""}
        </p>
      </div>

      {notice && (
        <Notice tone={notice.tone} title={notice.title}>
          {notice.text}
        </Notice>
      )}

      {loaded && !loaded.ok && (
        <Notice tone="error" title="The versions could not be loaded">
          <p>{loaded.error}</p>
          <Button size="sm" className="mt-2" onClick={() => setReloads((n) => n + 1)}>
            Try again
          </Button>
        </Notice>
      )}

      {loaded?.ok && versions.length === 0 && (
        <p className="rounded-lg border border-dashed border-zinc-300 px-4 py-6 text-center text-sm text-zinc-600">
          Publish this automation to start its version history.
        </p>
      )}

      {versions.length > 0 && (
        <ol aria-label="Published versions, newest first" className="space-y-3">
          {versions.map((version) => {
            const active = isActive(version, currentVersion);
            const isViewed = viewing === version.version;
            return (
              <li
                key={version.version}
                aria-current={isViewed ? "true" : undefined}
                className={cn(
                  "rounded-lg border px-3 py-3",
                  isViewed ? "border-indigo-300 bg-indigo-50/40" : "border-zinc-200 bg-white",
                )}
              >
                <div className="flex flex-wrap items-center gap-2">
                  <h3 className="text-sm font-semibold text-zinc-900">Version {version.version}</h3>
                  {active && (
                    <Badge tone="success" dot>
                      Active
                    </Badge>
                  )}
                  {isViewed && <Badge tone="accent">Viewing</Badge>}
                </div>
                <p className="mt-1 text-xs text-zinc-600">
                  {version.author} · <RelativeTime value={version.createdAt} />
                </p>
                {version.note ? (
                  <p className="mt-1.5 text-sm break-words whitespace-pre-line text-zinc-800">
                    {version.note}
                  </p>
                ) : (
                  <p className="mt-1.5 text-sm text-zinc-500 italic">No change note.</p>
                )}

                <div className="mt-2.5 flex flex-wrap gap-2">
                  {isViewed ? (
                    <Button size="sm" onClick={() => onView(null)}>
                      Back to the draft
                    </Button>
                  ) : (
                    <Button
                      size="sm"
                      aria-label={`View version ${version.version}`}
                      onClick={() => onView({ version: version.version, graph: version.graph })}
                    >
                      View
                    </Button>
                  )}
                  {canEdit && !active && (
                    <ConfirmButton
                      label="Revert to this version"
                      ariaLabel={`Revert to this version (version ${version.version})`}
                      title={`Revert to version ${version.version}?`}
                      confirmLabel={`Revert to version ${version.version}`}
                      pending={pending && reverting === version.version}
                      disabled={pending}
                      onConfirm={() => revert(version)}
                      onOpen={() => choosePolicy(version.version, version.inFlightPolicy)}
                    >
                      <RevertDetails
                        version={version}
                        nextVersion={currentVersion + 1}
                        currentPolicy={currentPolicy}
                        policy={choices[version.version] ?? version.inFlightPolicy}
                        onPolicyChange={(policy) => choosePolicy(version.version, policy)}
                        impact={impacts[version.version]}
                      />
                    </ConfirmButton>
                  )}
                </div>

                {isViewed && <VersionChanges version={version} versions={versions} />}
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}

/**
 * What a revert's dialog says: the old steps come back, and with them the old version's policy
 * (named as such, with the choice to keep the current one or take another); what happens to the
 * runs waiting now under that choice; that their wait times do not move.
 */
function RevertDetails({
  version,
  nextVersion,
  currentPolicy,
  policy,
  onPolicyChange,
  impact,
}: {
  version: Version;
  nextVersion: number;
  currentPolicy: InFlightPolicy | null;
  policy: InFlightPolicy;
  onPolicyChange(policy: InFlightPolicy): void;
  impact: Impacts[number];
}) {
  const restored = version.inFlightPolicy;
  const notes: Partial<Record<InFlightPolicy, string>> = {};
  if (currentPolicy === restored) notes[restored] = `version ${version.version}'s policy and the current one`;
  else {
    notes[restored] = `version ${version.version}'s policy, which the revert brings back`;
    if (currentPolicy) notes[currentPolicy] = "the current policy";
  }
  return (
    <div data-testid="revert-details">
      <p>
        This publishes version {version.version}&apos;s steps as version {nextVersion}. The draft is replaced
        by these steps too, so edits you have not published are lost.
      </p>
      <p className="mt-2" data-testid="revert-restored-policy">
        {currentPolicy && currentPolicy !== restored
          ? `Version ${version.version} also brings back its policy for waiting runs: “${POLICY_CHOICES[restored].label}” instead of the current “${POLICY_CHOICES[currentPolicy].label}”. Keep the current one or choose another below.`
          : `Waiting runs follow version ${version.version}'s policy: “${POLICY_CHOICES[restored].label}”. You can choose another below.`}
      </p>
      <PolicyChoice
        legend="When runs that are waiting wake up"
        value={policy}
        onChange={onPolicyChange}
        notes={notes}
      />
      <p className="mt-3 font-medium text-zinc-800">Runs waiting now</p>
      <p aria-live="polite" data-testid="revert-impact">
        {impact ? impact.message : "Checking the runs that are waiting…"}
      </p>
      {impact && impact.waitingRuns > 0 && <p className="mt-1">{WAITS_KEEP_THEIR_TIME}</p>}
    </div>
  );
}

function isActive(version: Version, currentVersion: number): boolean {
  return version.version === currentVersion;
}

const MARKER_STYLES: Record<DiffEntry["kind"], string> = {
  added: "bg-emerald-100 text-emerald-800",
  removed: "bg-red-100 text-red-800",
  changed: "bg-amber-100 text-amber-800",
};

/** What the viewed version changed against the one published before it, step by step. */
export function VersionChanges({ version, versions }: { version: Version; versions: Version[] }) {
  const before = previousVersion(versions, version.version);
  const entries = useMemo(
    () => (before ? diffEntries(diffGraphs(before.graph, version.graph)) : []),
    [before, version.graph],
  );
  const headingId = useId();

  return (
    <section aria-labelledby={headingId} className="mt-3 border-t border-zinc-200 pt-3">
      <h4 id={headingId} className="text-xs font-medium tracking-wide text-zinc-500 uppercase">
        {before ? `Changes since version ${before.version}` : "Changes"}
      </h4>
      {!before && (
        <p className="mt-1 text-sm text-zinc-600">The first version, with {stepCount(version.graph)}.</p>
      )}
      {before && entries.length === 0 && (
        <p className="mt-1 text-sm text-zinc-600">
          The same steps as version {before.version}
          {before.name !== version.name
            ? `; the name changed from '${before.name}' to '${version.name}'.`
            : "."}
        </p>
      )}
      {entries.length > 0 && (
        <ul className="mt-1.5 space-y-1.5 text-sm text-zinc-800">
          {entries.map((entry, i) => (
            <li key={`${i}-${entry.text}`} className="flex gap-2">
              <span
                aria-hidden="true"
                className={cn(
                  "mt-0.5 flex size-5 shrink-0 items-center justify-center rounded font-mono text-xs font-semibold",
                  MARKER_STYLES[entry.kind],
                )}
              >
                {entry.marker}
              </span>
              <div className="min-w-0 break-words">
                {entry.text}
                {entry.details.length > 0 && (
                  <ul className="mt-0.5 text-xs text-zinc-600">
                    {entry.details.map((detail, j) => (
                      <li key={`${j}-${detail}`}>{detail}</li>
                    ))}
                  </ul>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
