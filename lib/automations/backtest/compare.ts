/**
 * What a backtest found, from each run's path then and now (pure): how many runs reached each
 * step then and would now, the runs whose path changed, and the difference in words — "2 runs
 * would no longer reach “Add tag 'vip'”; 4 runs would newly reach “Email the customer”".
 */

/** One real run replayed: the steps its first part reached then, and would reach now (trigger first). */
export interface RunPaths {
  runId: string;
  entity: { domain: string; id: string; label: string } | null;
  then: string[];
  now: string[];
}

export interface BacktestComparison {
  runs: number;
  /** Node id → the runs that reached it then / would reach it now. */
  then: Record<string, number>;
  now: Record<string, number>;
  /** The runs whose path changed, newest first. */
  changed: RunPaths[];
  /** The difference in words, a sentence per step that gains or loses runs. */
  sentences: string[];
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

/**
 * Compares the runs' paths. `order` lists node ids in the order their sentences come (the
 * graph's); `labelOf` names a step as drawn; `triggers` are left out of the sentences.
 */
export function compareRuns(
  runs: RunPaths[],
  {
    order,
    labelOf,
    triggers,
  }: { order: string[]; labelOf: (nodeId: string) => string; triggers: Set<string> },
): BacktestComparison {
  const changed = runs.filter((run) => !samePath(run.then, run.now));
  const sentences: string[] = [];
  const unstarted = changed.filter((run) => run.now.length === 0).length;
  if (unstarted > 0)
    sentences.push(`${runsWord(unstarted)} would not start: the trigger no longer accepts the event`);
  const nodes = [...new Set([...order, ...changed.flatMap((run) => [...run.then, ...run.now])])];
  for (const nodeId of nodes) {
    if (triggers.has(nodeId)) continue;
    const lost = changed.filter((run) => run.then.includes(nodeId) && !run.now.includes(nodeId)).length;
    const gained = changed.filter((run) => !run.then.includes(nodeId) && run.now.includes(nodeId)).length;
    if (lost > 0) sentences.push(`${runsWord(lost)} would no longer reach “${labelOf(nodeId)}”`);
    if (gained > 0) sentences.push(`${runsWord(gained)} would newly reach “${labelOf(nodeId)}”`);
  }
  if (runs.length === 0) sentences.push("There are no runs of this automation yet to try it on");
  else if (changed.length === 0)
    sentences.push(
      runs.length === 1
        ? "The run would take the same path"
        : `All ${runs.length} runs would take the same path`,
    );
  return {
    runs: runs.length,
    then: countsOf(runs.map((run) => run.then)),
    now: countsOf(runs.map((run) => run.now)),
    changed,
    sentences,
  };
}
