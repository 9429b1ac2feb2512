/**
 * What a backtest found, from each run's path then and now (pure): how many runs reached each
 * step then and would now, the runs whose path changed, the runs whose later steps cannot be
 * known yet, and all of it in words — a headline ("3 runs: 1 would take a different path; 1 would
 * take the same path; 1 is still waiting, so its later steps are not known yet") and a sentence
 * per step that gains or loses runs ("2 runs would no longer reach “Add tag 'vip'”").
 *
 * Terms: a run's path is the set of steps it reached (its trigger first), over all its parts; two
 * paths are the same when they act and wait at the same steps — a condition only decides, so a
 * check the run passes adds nothing to its path, and one it fails shows in the steps it no longer
 * reaches.
 * A *possible* path is one the draft could take: a run that meets an approval or a wait for an
 * event the real run never had has one per out. A run is *in flight* while the real one still
 * waits at a step (`waiting`) or is still taking steps or about to try one again (`running`):
 * its real path is not over.
 */

/** Why a run's later steps are not known: it still waits, it still runs, or it depends on an outcome it never had. */
export type NotKnown = "waiting" | "running" | "outcome";

/** One real run replayed: the steps it reached then, and would reach now (trigger first). */
export interface RunPaths {
  runId: string;
  entity: { domain: string; id: string; label: string } | null;
  then: string[];
  /** The steps it would reach whatever the outcome of the waits it never had. */
  now: string[];
  /** Steps it would reach only with some outcomes of `undecided` (absent when none). */
  maybe?: string[];
  /** The approvals and waits for an event it never had an outcome for (absent when none). */
  undecided?: string[];
  /** Why its later steps are not known (absent when they are). */
  notKnown?: NotKnown;
  /**
   * The difference, conditions left out (set on the runs a comparison returns): the steps it
   * would no longer reach / would newly reach, and those it might no longer or might newly reach
   * depending on `undecided`.
   */
  lost?: string[];
  gained?: string[];
  mightLose?: string[];
  mightGain?: string[];
}

/** A run as the replay hands it over: its path then, each possible path now, and whether it is in flight. */
export interface RunReplay {
  runId: string;
  entity: RunPaths["entity"];
  then: string[];
  possible: string[][];
  undecided?: string[];
  inFlight?: Exclude<NotKnown, "outcome">;
}

export interface BacktestComparison {
  runs: number;
  /** Node id → the runs that reached it then / would reach it now (whatever the outcome). */
  then: Record<string, number>;
  now: Record<string, number>;
  /** The runs whose path would change, newest first. */
  changed: RunPaths[];
  /** The runs whose later steps are not known yet (still waiting or running), newest first. */
  unknown: RunPaths[];
  /** The answer in one line: how many runs would change path, keep it, or cannot be told yet. */
  headline: string;
  /**
   * The answer in sentences: a sentence per step that gains or loses runs, then (unless the
   * headline is all there is to say) the runs that keep their path and those not known yet.
   */
  sentences: string[];
  /** Only the sentences per step: what to say under the headline, which has the rest. */
  differences: string[];
}

const runsWord = (n: number) => (n === 1 ? "1 run" : `${n} runs`);

function countsOf(paths: string[][]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const path of paths) for (const nodeId of new Set(path)) counts[nodeId] = (counts[nodeId] ?? 0) + 1;
  return counts;
}

function samePath(a: string[], b: string[]): boolean {
  const set = new Set(a);
  return new Set(b).size === set.size && b.every((nodeId) => set.has(nodeId));
}

type Verdict = "same" | "changed" | "unknown";

/**
 * One possible path against the real one (both without their conditions). A run over: the same
 * steps or not. A run still waiting: the replay stopped where it waits too, so the steps so far
 * must be the same, and what follows is not known. A run still taking steps: only a step it took
 * that the path lacks tells.
 */
function verdictOf(then: string[], path: string[], inFlight: RunReplay["inFlight"]): Verdict {
  if (inFlight === "running") {
    const now = new Set(path);
    return then.every((nodeId) => now.has(nodeId)) ? "unknown" : "changed";
  }
  if (samePath(then, path)) return inFlight ? "unknown" : "same";
  return "changed";
}

/**
 * A replay as a comparison reads it: its verdict, the steps it reaches for sure or maybe, and
 * the difference. `acts` leaves a path's conditions out.
 */
function judge(
  run: RunPaths | RunReplay,
  acts: (path: string[]) => string[],
): { paths: RunPaths; verdict: Verdict } {
  const possible = "possible" in run ? (run.possible.length > 0 ? run.possible : [[]]) : [run.now];
  const inFlight = "possible" in run ? run.inFlight : undefined;
  const verdicts = new Set(possible.map((path) => verdictOf(acts(run.then), acts(path), inFlight)));
  const sets = possible.map((path) => new Set(path));
  const all = [...new Set(possible.flat())];
  const now = all.filter((nodeId) => sets.every((set) => set.has(nodeId)));
  const maybe = all.filter((nodeId) => !now.includes(nodeId));
  const given = "possible" in run ? undefined : run.notKnown;
  const verdict: Verdict = given ? "unknown" : verdicts.size === 1 ? [...verdicts][0]! : "unknown";
  const then = new Set(run.then);
  const paths: RunPaths = {
    runId: run.runId,
    entity: run.entity,
    then: run.then,
    now,
    ...(maybe.length > 0 ? { maybe } : {}),
    ...(run.undecided && run.undecided.length > 0 ? { undecided: run.undecided } : {}),
    ...(verdict === "unknown" ? { notKnown: given ?? inFlight ?? "outcome" } : {}),
    lost: acts(run.then).filter((nodeId) => !now.includes(nodeId) && !maybe.includes(nodeId)),
    gained: acts(now).filter((nodeId) => !then.has(nodeId)),
  };
  const mightLose = acts(maybe).filter((nodeId) => then.has(nodeId));
  const mightGain = acts(maybe).filter((nodeId) => !then.has(nodeId));
  if (mightLose.length > 0) paths.mightLose = mightLose;
  if (mightGain.length > 0) paths.mightGain = mightGain;
  return { paths, verdict };
}

/**
 * "1 is still waiting, so its later steps are not known yet" — or, standing alone as a sentence,
 * "1 run is still waiting, …" (`noun`).
 */
function notKnownWords(n: number, why: NotKnown, noun = false): string {
  const one = n === 1;
  const who = noun ? runsWord(n) : String(n);
  const later = one ? "its later steps are" : "their later steps are";
  switch (why) {
    case "waiting":
      return `${who} ${one ? "is" : "are"} still waiting, so ${later} not known yet`;
    case "running":
      return `${who} ${one ? "is" : "are"} still running, so ${later} not known yet`;
    case "outcome":
      return `${who} depend${one ? "s" : ""} on a decision or event the real run never had, so ${later} not known`;
  }
}

/** "“Approval: Review”" or "“Approval: Review” and “Wait for 'Order fulfilled'”": the waits named. */
function waitsNamed(nodeIds: string[], labelOf: (nodeId: string) => string): string {
  const names = nodeIds.map((nodeId) => `“${labelOf(nodeId)}”`);
  return names.length <= 1 ? (names[0] ?? "") : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
}

/**
 * Compares the runs' paths. `order` lists node ids in the order their sentences come (the
 * graph's); `labelOf` names a step as drawn; `triggers` are left out of the sentences;
 * `conditions` (none unless given) are left out of the paths compared and of the sentences.
 */
export function compareRuns(
  runs: (RunPaths | RunReplay)[],
  {
    order,
    labelOf,
    triggers,
    conditions = new Set(),
  }: {
    order: string[];
    labelOf: (nodeId: string) => string;
    triggers: Set<string>;
    conditions?: ReadonlySet<string>;
  },
): BacktestComparison {
  const acts = (path: string[]) => path.filter((nodeId) => !conditions.has(nodeId));
  const judged = runs.map((run) => judge(run, acts));
  const all = judged.map((j) => j.paths);
  const changed = judged.filter((j) => j.verdict === "changed").map((j) => j.paths);
  const unknown = judged.filter((j) => j.verdict === "unknown").map((j) => j.paths);
  const same = judged.length - changed.length - unknown.length;

  const sentences: string[] = [];
  const unstarted = changed.filter((run) => run.now.length === 0 && !run.maybe).length;
  if (unstarted > 0)
    sentences.push(`${runsWord(unstarted)} would not start: the trigger no longer accepts the event`);
  const nodes = [
    ...new Set([...order, ...changed.flatMap((run) => [...run.then, ...run.now, ...(run.maybe ?? [])])]),
  ];
  const depending = (of: RunPaths[]) =>
    `, depending on ${waitsNamed([...new Set(of.flatMap((run) => run.undecided ?? []))], labelOf)}`;
  for (const nodeId of nodes) {
    if (triggers.has(nodeId) || conditions.has(nodeId)) continue;
    const step = `“${labelOf(nodeId)}”`;
    const lost = changed.filter((run) => run.lost?.includes(nodeId)).length;
    const gained = changed.filter((run) => run.gained?.includes(nodeId)).length;
    const mayLose = changed.filter((run) => run.mightLose?.includes(nodeId));
    const mayGain = changed.filter((run) => run.mightGain?.includes(nodeId));
    if (lost > 0) sentences.push(`${runsWord(lost)} would no longer reach ${step}`);
    if (gained > 0) sentences.push(`${runsWord(gained)} would newly reach ${step}`);
    if (mayLose.length > 0)
      sentences.push(`${runsWord(mayLose.length)} might no longer reach ${step}${depending(mayLose)}`);
    if (mayGain.length > 0)
      sentences.push(`${runsWord(mayGain.length)} might newly reach ${step}${depending(mayGain)}`);
  }
  const differences = [...sentences];
  const whyUnknown: NotKnown[] = ["waiting", "running", "outcome"];
  const unknownCounts = whyUnknown
    .map((why) => [why, unknown.filter((run) => run.notKnown === why).length] as const)
    .filter(([, n]) => n > 0);

  let headline: string;
  if (runs.length === 0) {
    headline = "There are no runs of this automation yet to try it on";
    sentences.push(headline);
  } else if (changed.length === 0 && unknown.length === 0) {
    headline =
      runs.length === 1
        ? "The run would take the same path"
        : `All ${runs.length} runs would take the same path`;
    sentences.push(headline);
  } else {
    const parts = [
      ...(changed.length > 0 ? [`${changed.length} would take a different path`] : []),
      ...(same > 0 ? [`${same} would take the same path`] : []),
      ...unknownCounts.map(([why, n]) => notKnownWords(n, why)),
    ];
    headline = `${runsWord(runs.length)}: ${parts.join("; ")}`;
    // The runs that cannot be told yet are said among the differences too, never left out.
    if (unknown.length > 0) {
      if (changed.length === 0 && same > 0) sentences.push(`${runsWord(same)} would take the same path`);
      sentences.push(...unknownCounts.map(([why, n]) => notKnownWords(n, why, true)));
    }
  }
  return {
    runs: runs.length,
    then: countsOf(all.map((run) => run.then)),
    now: countsOf(all.map((run) => run.now)),
    changed,
    unknown,
    headline,
    sentences,
    differences,
  };
}
