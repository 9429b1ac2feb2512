/** The chaos suite's worker processes: started, SIGKILLed and restarted, stopped; and the jobs one holds when killed. */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { getDb } from "@/lib/db/client";

/** Worker processes as `npm run worker` starts them, one per slot, each with a log file of its own. */
export class WorkerFleet {
  private readonly processes: (ChildProcess | null)[];
  private spawned = 0;
  /** Workers found already gone when their kill came: each is a crash the suite did not cause. */
  exitedByThemselves = 0;

  constructor(
    size: number,
    private readonly env: NodeJS.ProcessEnv,
    private readonly logDir: string | null,
    private readonly log: (line: string) => void,
    /** Where each slot's worker runs: a command prefix (a host's `ip netns exec …`) and settings of its own. */
    private readonly placement: (slot: number) => { prefix: string[]; env: Record<string, string> } = () => ({
      prefix: [],
      env: {},
    }),
  ) {
    this.processes = Array.from({ length: size }, () => null);
  }

  startAll(): void {
    for (let slot = 0; slot < this.processes.length; slot++) this.start(slot);
  }

  start(slot: number): void {
    const n = ++this.spawned;
    const out = this.logDir ? fs.openSync(path.join(this.logDir, `worker-${slot}-${n}.log`), "a") : "ignore";
    const { prefix, env } = this.placement(slot);
    const command = [...prefix, process.execPath, "--import", "tsx", "worker/index.ts"];
    const child = spawn(command[0]!, command.slice(1), {
      env: { ...this.env, ...env },
      stdio: ["ignore", out, out],
    });
    if (typeof out === "number") fs.closeSync(out);
    this.processes[slot] = child;
  }

  get size(): number {
    return this.processes.length;
  }

  /** SIGKILLs the worker in `slot`; resolves with its pid once it is gone. */
  async kill(slot: number): Promise<number> {
    const child = this.processes[slot]!;
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGKILL");
      await exited;
    } else {
      this.exitedByThemselves++;
      this.log(`  worker ${slot} (pid ${child.pid}) had exited by itself (code ${child.exitCode})`);
    }
    this.processes[slot] = null;
    return child.pid!;
  }

  pidOf(slot: number): number | null {
    return this.processes[slot]?.pid ?? null;
  }

  /** Asks every worker to stop (SIGTERM), and kills those still running after 20 s. */
  async stopAll(): Promise<void> {
    await Promise.all(
      this.processes.map(async (child) => {
        if (!child || child.exitCode !== null || child.signalCode !== null) return;
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGTERM");
        const force = setTimeout(() => child.kill("SIGKILL"), 20_000);
        await exited;
        clearTimeout(force);
      }),
    );
  }
}

/** Locked jobs of the worker with this pid (its heartbeat names its lock ids). */
export async function heldJobs(pid: number): Promise<{ lockIds: string[]; jobIds: string[] }> {
  const [row] = await getDb().execute<{ lock_ids: string[] | null }>(
    sql`select lock_ids from worker_heartbeats where pid = ${pid} and stopped_at is null
        order by started_at desc limit 1`,
  );
  const lockIds = row?.lock_ids ?? [];
  if (lockIds.length === 0) return { lockIds, jobIds: [] };
  const jobs = await getDb().execute<{ id: string }>(
    sql`select id::text from graphile_worker._private_jobs
        where locked_by in (select json_array_elements_text(${JSON.stringify(lockIds)}::json))`,
  );
  return { lockIds, jobIds: jobs.map((j) => j.id) };
}

/** How many of `jobIds` are still locked under one of `lockIds`. */
export async function stillHeld(lockIds: string[], jobIds: string[]): Promise<number> {
  const [row] = await getDb().execute<{ n: number }>(
    sql`select count(*)::int as n from graphile_worker._private_jobs
        where id in (select json_array_elements_text(${JSON.stringify(jobIds)}::json)::bigint)
          and locked_by in (select json_array_elements_text(${JSON.stringify(lockIds)}::json))`,
  );
  return row!.n;
}
