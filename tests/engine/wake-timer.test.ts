import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { POST as resumeNowRoute } from "@/app/api/v1/waits/[id]/resume-now/route";
import { WakeTimer } from "@/lib/automations/engine/wake-timer";
import { claimWaits } from "@/lib/automations/engine/claim";
import { getDb } from "@/lib/db/client";
import {
  actionDeliveries,
  automationRuns,
  automationRunSteps,
  automationRunWaits,
  workerHeartbeats,
  type RunStatus,
} from "@/lib/db/schema";
import type { WorkerHandle } from "@/worker/run";
import { resumeWaits } from "@/worker/tasks/automation-resume";
import { call, type ErrorReply } from "@/tests/helpers/fixtures";
import { createShop, type TestShop } from "@/tests/helpers/shop";
import { flow, publishFlow } from "@/tests/helpers/flows";
import { startTestWorker } from "@/tests/helpers/worker";
import { runInStatus, TERMINAL, until } from "@/tests/helpers/poll";
import { placeOrder } from "@/tests/helpers/orders";

// The WakeTimer resumes waits at their due instant by taking their graphile-worker jobs itself.
// These tests check what must hold whichever way a wait wakes: it resumes exactly once, its job
// is gone afterwards, a job someone else holds is left alone, and a job held by a process that
// died comes back through the sweeper and graphile-worker. No assertion is about how late.

let shop: TestShop;
let automationId: string;
let worker: WorkerHandle | null = null;

interface Parked {
  runId: string;
  waitId: string;
}

//  order_created ──▶ Wait 1 minute ──▶ add_tag(woke)
const wakeFlow = flow(
  [
    { id: "t", type: "auto.trigger.order_created" },
    { id: "w", type: "auto.control.wait", params: { duration: 1, unit: "minutes" } },
    { id: "tag", type: "auto.action.add_tag", params: { tag: "woke" } },
  ],
  [
    ["t", "w"],
    ["w", "tag"],
  ],
);

beforeAll(async () => {
  shop = await createShop();
  automationId = await publishFlow(shop.keys.editor, "Wake on time", wakeFlow);
});
afterAll(async () => {
  await worker?.stop();
});

/** Runs of these orders parked at the wait (a worker runs their first legs); usable in hooks. */
async function park(entityIds: string[]): Promise<Parked[]> {
  for (const id of entityIds) await placeOrder(shop, id);
  return until(
    () =>
      getDb()
        .select({ runId: automationRuns.id, waitId: automationRunWaits.id })
        .from(automationRuns)
        .innerJoin(automationRunWaits, eq(automationRunWaits.runId, automationRuns.id))
        .where(
          and(
            eq(automationRuns.automationId, automationId),
            inArray(automationRuns.entityId, entityIds),
            eq(automationRuns.status, "waiting"),
          ),
        )
        .orderBy(asc(automationRuns.entityId)),
    (parked) => parked.length === entityIds.length,
    { timeoutMs: 15_000, intervalMs: 50, what: `all ${entityIds.length} runs parked at the wait` },
  );
}

/** Moves waits (rows and jobs together, as createWait makes them) to fall due at `at`. */
async function dueAt(waitIds: string[], at: Date): Promise<void> {
  const db = getDb();
  await db.update(automationRunWaits).set({ resumeAt: at }).where(inArray(automationRunWaits.id, waitIds));
  await db.execute(sql`update automation_runs set resume_at = ${at.toISOString()}::timestamptz
    where id in (select run_id from automation_run_waits where id in ${waitIds})`);
  await db.execute(sql`update graphile_worker._private_jobs set run_at = ${at.toISOString()}::timestamptz
    where key in ${waitIds}`);
}

const soon = (ms = 1_500) => new Date(Date.now() + ms);

async function statusOf(runId: string): Promise<RunStatus> {
  const [run] = await getDb().select().from(automationRuns).where(eq(automationRuns.id, runId));
  return run!.status;
}

async function untilSettled(runId: string): Promise<RunStatus> {
  return (await runInStatus(runId, TERMINAL)).status;
}

async function jobOf(waitId: string) {
  const [job] = await getDb().execute<{ locked_by: string | null; attempts: number }>(
    sql`select locked_by, attempts from graphile_worker._private_jobs where key = ${waitId}`,
  );
  return job ?? null;
}

/** The tag action's steps and deliveries: one each when the wait resumed exactly once. */
async function actionsOf(runId: string) {
  const steps = await getDb()
    .select({
      nodeId: automationRunSteps.nodeId,
      status: automationRunSteps.status,
      leg: automationRunSteps.leg,
    })
    .from(automationRunSteps)
    .where(eq(automationRunSteps.runId, runId))
    .orderBy(asc(automationRunSteps.leg), asc(automationRunSteps.position));
  const deliveries = await getDb()
    .select({ nodeId: actionDeliveries.nodeId, leg: actionDeliveries.leg, status: actionDeliveries.status })
    .from(actionDeliveries)
    .where(eq(actionDeliveries.runId, runId));
  return { steps, deliveries };
}

const resumedOnce = {
  steps: [
    { nodeId: "w", status: "success", leg: 1 },
    { nodeId: "tag", status: "success", leg: 2 },
  ],
  deliveries: [{ nodeId: "tag", leg: 2, status: "delivered" }],
};

/** A timer on its own (no graphile-worker running), recording which waits it resumed. */
function spyTimer(lockId: string, resumed: string[]): WakeTimer {
  return new WakeTimer({
    lockId,
    resume: async (ids) => {
      resumed.push(...ids);
      await resumeWaits(ids);
    },
    scanEveryMs: 200,
    lookaheadMs: 1_000,
  });
}

describe("the timer on its own", () => {
  let parked: Parked[];
  beforeAll(async () => {
    // A worker parks the runs, then stops: from here on only the timers under test take jobs.
    worker = await startTestWorker();
    parked = await park(["a-1", "b-1", "b-2", "c-1", "c-2", "f-1"]);
    await worker.stop();
    worker = null;
  });

  test("a wait due in a moment resumes once, its run settles with its action once, and its job is gone", async () => {
    const [p] = parked.slice(0, 1);
    const resumed: string[] = [];
    const timer = spyTimer("test-a-wake", resumed);
    await dueAt([p!.waitId], soon());
    timer.start();
    try {
      expect(await untilSettled(p!.runId)).toBe("succeeded");
      expect(await actionsOf(p!.runId)).toEqual(resumedOnce);
      await expect.poll(() => jobOf(p!.waitId)).toBeNull();
    } finally {
      await timer.stop();
    }
    expect(resumed).toEqual([p!.waitId]);
    expect(timer.armed).toBe(0);
  });

  test("a wait whose job graphile-worker already holds is not run by the timer", async () => {
    const [held, free] = parked.slice(1, 3);
    // Due at the same instant, so one scan and one wake see both.
    await dueAt([held!.waitId, free!.waitId], soon());
    await getDb().execute(sql`update graphile_worker._private_jobs
      set locked_by = 'another-worker-pool', locked_at = now(), attempts = attempts + 1 where key = ${held!.waitId}`);
    const resumed: string[] = [];
    const timer = spyTimer("test-b-wake", resumed);
    timer.start();
    try {
      expect(await untilSettled(free!.runId)).toBe("succeeded");
    } finally {
      await timer.stop();
    }
    expect(resumed).toEqual([free!.waitId]);
    expect(await statusOf(held!.runId)).toBe("waiting");
    expect((await jobOf(held!.waitId))?.locked_by).toBe("another-worker-pool");
    // Give the job back: the next worker runs it like any due job.
    await getDb().execute(sql`update graphile_worker._private_jobs
      set locked_by = null, locked_at = null where key = ${held!.waitId}`);
  });

  test("two timers racing for the same wait resume it once", async () => {
    const [p] = parked.slice(3, 4);
    const resumed: string[] = [];
    const timers = [spyTimer("test-c1-wake", resumed), spyTimer("test-c2-wake", resumed)];
    await dueAt([p!.waitId], soon());
    for (const t of timers) t.start();
    try {
      expect(await untilSettled(p!.runId)).toBe("succeeded");
      await expect.poll(() => jobOf(p!.waitId)).toBeNull();
    } finally {
      await Promise.all(timers.map((t) => t.stop()));
    }
    expect(resumed).toEqual([p!.waitId]);
    expect(await actionsOf(p!.runId)).toEqual(resumedOnce);
  });

  test("a wait moved by Resume now while the timer holds its job is left to its new job", async () => {
    const [p] = parked.slice(5, 6);
    const resumed: string[] = [];
    const timer = spyTimer("test-f-wake", resumed);
    await dueAt([p!.waitId], soon());
    timer.start();
    const heldByTimer = async () =>
      (
        await getDb().execute<{ n: number }>(
          sql`select count(*)::int as n from graphile_worker._private_jobs where locked_by = 'test-f-wake'`,
        )
      )[0]!.n;
    try {
      await expect.poll(heldByTimer, { timeout: 10_000, interval: 20 }).toBe(1);
      // graphile-worker gives the wait a new job (the held one loses its key); none runs here.
      const res = await call<ErrorReply>(resumeNowRoute, {
        method: "POST",
        key: shop.keys.editor,
        params: { id: p!.waitId },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      // The wake fires, resumes nothing, and completes the job it held.
      await expect.poll(heldByTimer, { timeout: 10_000 }).toBe(0);
    } finally {
      await timer.stop();
    }
    expect(resumed).toEqual([]);
    expect(await statusOf(p!.runId)).toBe("waiting");
    expect(await jobOf(p!.waitId)).toEqual({ locked_by: null, attempts: 0 });
  });

  test("a job held by a timer whose process died is freed by the sweeper and resumes through graphile-worker, once", async () => {
    const [p] = parked.slice(4, 5);
    const deadLockId = "dead-host-1-wake";
    // The dead process claimed the wait (its run is `running`) and never got further.
    let claimed: () => void = () => {};
    const claimedNow = new Promise<void>((resolve) => (claimed = resolve));
    let die: (error: Error) => void = () => {};
    const dead = new WakeTimer({
      lockId: deadLockId,
      resume: async ([waitId]) => {
        await claimWaits([waitId!]);
        claimed();
        await new Promise<void>((_, reject) => (die = reject));
      },
      scanEveryMs: 200,
      lookaheadMs: 1_000,
    });
    await dueAt([p!.waitId], soon());
    dead.start();
    await claimedNow;
    expect(await statusOf(p!.runId)).toBe("running");
    expect((await jobOf(p!.waitId))?.locked_by).toBe(deadLockId);
    await getDb()
      .insert(workerHeartbeats)
      .values({ workerId: "dead", hostname: "h", pid: 1, lockIds: [deadLockId], lastSeenAt: new Date(0) });

    // A live worker: its own timer leaves the held job alone; its sweeper frees it; it runs it.
    worker = await startTestWorker();
    await getDb().execute(sql`select graphile_worker.add_job('worker_sweep', '{}'::json)`);
    expect(await untilSettled(p!.runId)).toBe("succeeded");
    expect(await actionsOf(p!.runId)).toEqual(resumedOnce);
    await expect.poll(() => jobOf(p!.waitId)).toBeNull();

    // The dead timer's late error finds nothing of its own to give back.
    die(new Error("killed"));
    await dead.stop();
    expect(await jobOf(p!.waitId)).toBeNull();
  });
});

describe("in the worker", () => {
  beforeAll(async () => {
    worker ??= await startTestWorker();
  });

  test("the heartbeat names the timer's lock id, so the sweeper can free its jobs", async () => {
    const [row] = await getDb()
      .select({ lockIds: workerHeartbeats.lockIds })
      .from(workerHeartbeats)
      .where(eq(workerHeartbeats.workerId, worker!.workerId));
    expect(row!.lockIds).toContain(worker!.wakeTimer.lockId);
  });

  test("a wait due in a few seconds resumes once and leaves no job behind", async () => {
    const [p] = await park(["d-1"]);
    await dueAt([p!.waitId], soon(3_000));
    expect(await untilSettled(p!.runId)).toBe("succeeded");
    expect(await actionsOf(p!.runId)).toEqual(resumedOnce);
    await expect.poll(() => jobOf(p!.waitId)).toBeNull();
  });

  test("stopping the worker clears its wakes and gives their jobs back, and the next worker resumes them", async () => {
    const [p] = await park(["e-1"]);
    // Due after the look-ahead's first sight of it, so the stop comes before the wake fires.
    await dueAt([p!.waitId], soon(2_500));
    await expect.poll(() => worker!.wakeTimer.armed, { timeout: 10_000, interval: 20 }).toBeGreaterThan(0);
    expect((await jobOf(p!.waitId))?.locked_by).toBe(worker!.wakeTimer.lockId);
    const timer = worker!.wakeTimer;
    await worker!.stop();
    worker = null;
    expect(timer.armed).toBe(0);
    // Unlocked, and the attempt it never made not counted.
    expect(await jobOf(p!.waitId)).toEqual({ locked_by: null, attempts: 0 });
    expect(await statusOf(p!.runId)).toBe("waiting");

    worker = await startTestWorker();
    expect(await untilSettled(p!.runId)).toBe("succeeded");
    expect(await actionsOf(p!.runId)).toEqual(resumedOnce);
    await expect.poll(() => jobOf(p!.waitId)).toBeNull();
  });
});
