/**
 * CPU time of processes, read from /proc (Linux): what `bench -- workers` reports for each worker,
 * the web server and Postgres. Terminology: a *probe* names a set of processes and returns their
 * CPU seconds so far; the bench reads every probe before and after a section and reports the
 * difference. Children a process has reaped count in its `cutime`/`cstime`, so a Postgres backend
 * that exits between the two reads still counts (the postmaster reaps it).
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";

const TICKS_PER_SECOND = (() => {
  try {
    return Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
  } catch {
    return 100;
  }
})();

interface Stat {
  pid: number;
  ppid: number;
  pgrp: number;
  /** utime + stime + cutime + cstime, seconds. */
  cpu: number;
}

function readStat(pid: number): Stat | null {
  let text: string;
  try {
    text = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return null;
  }
  // The command name is in parentheses and may hold spaces; fields after it are positional.
  const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
  const n = (i: number) => Number(fields[i - 3]);
  return { pid, ppid: n(4), pgrp: n(5), cpu: (n(14) + n(15) + n(16) + n(17)) / TICKS_PER_SECOND };
}

function allStats(): Stat[] {
  const stats: Stat[] = [];
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = readStat(Number(entry));
    if (stat) stats.push(stat);
  }
  return stats;
}

export type Probe = () => number;

/** One process (its own CPU and its reaped children's); 0 once it is gone. */
export function processProbe(pid: number): Probe {
  return () => readStat(pid)?.cpu ?? 0;
}

/** Every process of a process group (a launcher and the server it started). */
export function groupProbe(pgrp: number): Probe {
  return () =>
    allStats()
      .filter((s) => s.pgrp === pgrp)
      .reduce((sum, s) => sum + s.cpu, 0);
}

/** A Postgres cluster: its postmaster (from `<dataDir>/postmaster.pid`) and every backend under it. */
export function postgresProbe(dataDir: string): Probe {
  const pid = Number(fs.readFileSync(`${dataDir}/postmaster.pid`, "utf8").split("\n")[0]);
  return () =>
    allStats()
      .filter((s) => s.pid === pid || s.ppid === pid)
      .reduce((sum, s) => sum + s.cpu, 0);
}

/**
 * The whole machine: every process's CPU, ours and anyone else's (/proc/stat, all but idle and
 * iowait). On a shared machine this shows how much of it the measured processes did not get.
 */
export const machineProbe: Probe = () => {
  const fields = fs
    .readFileSync("/proc/stat", "utf8")
    .split("\n")[0]!
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  // user nice system idle iowait irq softirq steal
  const busy = fields.reduce((sum, v, i) => (i === 3 || i === 4 || i > 7 ? sum : sum + v), 0);
  return busy / TICKS_PER_SECOND;
};

/** This process (the load generator). */
export const selfProbe: Probe = () => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1e6;
};

/** Reads every probe now; `since()` gives each one's CPU seconds from then on. */
export function cpuMark<K extends string>(probes: Record<K, Probe>): { since(): Record<K, number> } {
  const read = () =>
    Object.fromEntries(Object.entries<Probe>(probes).map(([k, probe]) => [k, probe()])) as Record<K, number>;
  const before = read();
  return {
    since() {
      const after = read();
      return Object.fromEntries(
        (Object.keys(probes) as K[]).map((k) => [k, Math.max(0, after[k] - before[k])]),
      ) as Record<K, number>;
    },
  };
}
