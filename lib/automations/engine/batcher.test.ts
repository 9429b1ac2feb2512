import { expect, test } from "vitest";
import { LIGHT_LEGS, RunBatcher } from "./batcher";

const done = (ids: string[]) => new Map(ids.map((id) => [id, "ran"]));

test("a batch that released its slot no longer holds back the next one, and its jobs still settle when it ends", async () => {
  let finishSlow!: () => void;
  const slowEnds = new Promise<void>((resolve) => (finishSlow = resolve));
  const batches: string[][] = [];
  // One batch in flight at a time; the first one's legs go on alone for a long while.
  const batcher = new RunBatcher<string>(
    async (ids, release) => {
      batches.push(ids);
      if (ids.includes("slow")) {
        release();
        await slowEnds;
      }
      return done(ids);
    },
    500,
    1,
    1,
  );
  let slowSettled = false;
  const slow = batcher.submit("slow").then((outcome) => ((slowSettled = true), outcome));
  await new Promise((r) => setTimeout(r, 20));
  expect(await batcher.submit("quick")).toBe("ran");
  expect(batches).toEqual([["slow"], ["quick"]]);
  expect(slowSettled).toBe(false);
  finishSlow();
  expect(await slow).toBe("ran");
});

test("a batch that keeps its slot to the end makes the next ids wait for it, then go together", async () => {
  let finishFirst!: () => void;
  const firstEnds = new Promise<void>((resolve) => (finishFirst = resolve));
  const batches: string[][] = [];
  const batcher = new RunBatcher<string>(
    async (ids) => {
      batches.push(ids);
      if (ids.includes("first")) await firstEnds;
      return done(ids);
    },
    500,
    1,
    1,
  );
  const first = batcher.submit("first");
  await new Promise((r) => setTimeout(r, 20));
  const next = [batcher.submit("a"), batcher.submit("b")];
  await new Promise((r) => setTimeout(r, 20));
  expect(batches).toEqual([["first"]]);
  finishFirst();
  expect(await Promise.all([first, ...next])).toEqual(["ran", "ran", "ran"]);
  expect(batches).toEqual([["first"], ["a", "b"]]);
});

test("when several shops wait, a batch takes their legs in turn, by weight: one leg of a quiet shop goes in the next batch", async () => {
  let finishFirst!: () => void;
  const firstEnds = new Promise<void>((resolve) => (finishFirst = resolve));
  const batches: string[][] = [];
  const batcher = new RunBatcher<string>(
    async (ids) => {
      batches.push(ids);
      if (ids.includes("first")) await firstEnds;
      return done(ids);
    },
    6,
    1,
    1,
  );
  const all = [batcher.submit("first", undefined, "flood")];
  await new Promise((r) => setTimeout(r, 20));
  // While the first batch runs, the flooding shop queues 20 legs, then a quiet shop 1 and a shop of weight 2 its 4.
  for (let i = 0; i < 20; i++) all.push(batcher.submit(`f${i}`, undefined, "flood"));
  all.push(batcher.submit("q0", undefined, "quiet"));
  for (let i = 0; i < 4; i++) all.push(batcher.submit(`h${i}`, undefined, "heavy", 2));
  finishFirst();
  await Promise.all(all);
  expect(batches.slice(0, 3)).toEqual([
    ["first"],
    ["f0", "q0", "h0", "h1", "f1", "h2"],
    ["f2", "h3", "f3", "f4", "f5", "f6"],
  ]);
  expect(batches.flat()).toHaveLength(26);
});

/** A batcher of `maxBatch` 50 whose batches end when `end` resolves; it keeps each batch and the most that ran at once. */
function watchedBatcher(end: (ids: string[]) => Promise<void>, maxInFlight: number) {
  const batches: string[][] = [];
  let running = 0;
  let mostAtOnce = 0;
  const batcher = new RunBatcher<string>(
    async (ids) => {
      batches.push(ids);
      running += 1;
      mostAtOnce = Math.max(mostAtOnce, running);
      await end(ids);
      running -= 1;
      return done(ids);
    },
    50,
    1,
    maxInFlight,
  );
  return { batcher, batches, mostAtOnce: () => mostAtOnce };
}

test("while one shop has a backlog here, a light shop's legs run at once in a batch of their own, not after the backlog's batches", async () => {
  let finishFlood!: () => void;
  const floodEnds = new Promise<void>((resolve) => (finishFlood = resolve));
  const { batcher, batches, mostAtOnce } = watchedBatcher(async (ids) => {
    if (ids[0]!.startsWith("f")) await floodEnds;
  }, 1);
  const flood = Array.from({ length: LIGHT_LEGS + 50 }, (_, i) =>
    batcher.submit(`f${i}`, undefined, "flood"),
  );
  await new Promise((r) => setTimeout(r, 20));
  // The flood's first batch holds the one slot; two quiet shops' legs arrive meanwhile.
  const quiet = [batcher.submit("q1", undefined, "quiet"), batcher.submit("r1", undefined, "other")];
  expect(await Promise.all(quiet)).toEqual(["ran", "ran"]);
  expect(batches.slice(1)).toEqual([["q1"], ["r1"]]);
  finishFlood();
  await Promise.all(flood);
  expect(batches.filter((b) => b[0]!.startsWith("f")).flat()).toHaveLength(LIGHT_LEGS + 50);
  // The light lane is one batch beside the slots, never more.
  expect(mostAtOnce()).toBe(2);
});

test("a shop alone never takes the light lane, however many legs it has: its batches keep to the slots", async () => {
  const { batcher, batches, mostAtOnce } = watchedBatcher(() => new Promise((r) => setTimeout(r, 5)), 2);
  const legs = Array.from({ length: LIGHT_LEGS * 3 }, (_, i) => batcher.submit(`a${i}`, undefined, "alone"));
  await Promise.all(legs);
  expect(mostAtOnce()).toBe(2);
  expect(batches.flat()).toHaveLength(LIGHT_LEGS * 3);
  expect(batches.every((b) => b.length === 50)).toBe(true);
});
