import type { IngestedEvent } from "@/lib/events/input";
import { recordIngested } from "./ingest";

/**
 * Group commit for single events. Every transaction that adds jobs ends with graphile-worker's
 * NOTIFY, and Postgres lets only one notifying transaction commit at a time (it holds a
 * cluster-wide lock through the commit's WAL flush); so 32 clients sending one event each would
 * queue behind each other's disk flushes. Instead, events of one shop that arrive while earlier
 * ones are being written are recorded together, in one statement, by the next write.
 *
 * Nothing waits for a timer: the first event is written at once, and a group forms only while
 * writes are in flight, so a quiet shop sees no added latency. Each event keeps its own outcome
 * (recorded, already recorded, or naming a missing record: only that one is refused); an event
 * whose id is already in the forming group waits for the next one, so a repeat is answered exactly
 * as it would be one request later. A failed write fails the events written with it, and only them.
 */

/** Writes of one shop in flight at once. Default 2. */
const MAX_IN_FLIGHT = 2;
/** Events written together at most (the array limit). */
const MAX_GROUP = 1_000;

export type GroupedOutcome = { missing: true } | { missing: false; createdAt: Date | null };

interface Waiter {
  event: IngestedEvent;
  resolve: (outcome: GroupedOutcome) => void;
  reject: (error: unknown) => void;
}

interface ShopQueue {
  waiting: Waiter[];
  inFlight: number;
}

const queues = new Map<string, ShopQueue>();

/**
 * Records one event with whatever other events of the shop are waiting, and says what became of
 * it: `createdAt` when it was recorded now, null when its id was already recorded.
 */
export function recordGrouped(tenantId: string, event: IngestedEvent): Promise<GroupedOutcome> {
  return new Promise((resolve, reject) => {
    let queue = queues.get(tenantId);
    if (!queue) {
      queue = { waiting: [], inFlight: 0 };
      queues.set(tenantId, queue);
    }
    queue.waiting.push({ event, resolve, reject });
    pump(tenantId, queue);
  });
}

function pump(tenantId: string, queue: ShopQueue): void {
  while (queue.inFlight < MAX_IN_FLIGHT && queue.waiting.length > 0) {
    const group: Waiter[] = [];
    const ids = new Set<string>();
    const later: Waiter[] = [];
    for (const waiter of queue.waiting) {
      if (group.length < MAX_GROUP && !ids.has(waiter.event.id)) {
        ids.add(waiter.event.id);
        group.push(waiter);
      } else {
        later.push(waiter);
      }
    }
    queue.waiting = later;
    queue.inFlight++;
    void write(tenantId, group).finally(() => {
      queue.inFlight--;
      if (queue.waiting.length > 0) pump(tenantId, queue);
      else if (queue.inFlight === 0) queues.delete(tenantId);
    });
  }
}

async function write(tenantId: string, group: Waiter[]): Promise<void> {
  try {
    const events = group.map((w) => w.event);
    const { missing, insertedAt } = await recordIngested(tenantId, events, { allOrNothing: false });
    const refused = new Set(missing);
    group.forEach((waiter, i) =>
      waiter.resolve(
        refused.has(i)
          ? { missing: true }
          : { missing: false, createdAt: insertedAt.get(waiter.event.id) ?? null },
      ),
    );
  } catch (error) {
    for (const waiter of group) waiter.reject(error);
  }
}
