import { describe, expect, it } from "vitest";
import { compileSchedule, type CompiledSchedule } from "./cron";
import { DST_GAPS, DST_REPEATS, type DstRule } from "./dst";

/**
 * The DST oracle (issue 53): for every IANA zone with DST and every day of 2020–2035, a daily
 * schedule at each half hour of the gap and repeat hours, under each of the six rules, fires
 * exactly when an independent computation says. The expected fire times are worked out here
 * from `Intl.DateTimeFormat`'s offsets ("GMT+02:00"), with nothing from `dst.ts` or croner.
 *
 * Why checking only the days with a clock change covers every day: on a day whose offset does
 * not change, each local time exists exactly once, so no rule has anything to decide — all six
 * rules fire at that one instant, which is the plain cron time. A zone's offset can only change
 * on the days found below, because offsets are sampled every 24 hours over the whole range and
 * no zone holds a DST (or any) offset for less than a day; each change is then pinned to the
 * second by bisection. So the days checked are exactly the days on which a rule could matter.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const FROM = Date.UTC(2019, 11, 31);
const TO = Date.UTC(2036, 0, 2);

const offsetFormats = new Map<string, Intl.DateTimeFormat>();
/** The zone's offset at `at`, in ms, read from the "GMT+05:45" Intl prints. */
function offsetAt(zone: string, at: number): number {
  let format = offsetFormats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", { timeZone: zone, timeZoneName: "longOffset" });
    offsetFormats.set(zone, format);
  }
  const match = /GMT(?:([+-])(\d\d):(\d\d)(?::(\d\d))?)?$/.exec(format.format(at));
  if (!match) throw new Error(`no offset for ${zone}`);
  if (!match[1]) return 0;
  const ms = (Number(match[2]) * 3600 + Number(match[3]) * 60 + Number(match[4] ?? 0)) * 1000;
  return match[1] === "-" ? -ms : ms;
}

interface Change {
  zone: string;
  at: number;
  before: number;
  after: number;
}

function changesOf(zone: string): Change[] {
  const changes: Change[] = [];
  let previous = offsetAt(zone, FROM);
  for (let day = FROM + DAY; day <= TO; day += DAY) {
    const offset = offsetAt(zone, day);
    if (offset === previous) continue;
    let lo = day - DAY;
    let hi = day;
    while (hi - lo > 1000) {
      const mid = lo + Math.floor((hi - lo) / 2000) * 1000;
      if (offsetAt(zone, mid) === previous) lo = mid;
      else hi = mid;
    }
    changes.push({ zone, at: hi, before: previous, after: offset });
    previous = offset;
  }
  return changes;
}

function inYears(change: Change): boolean {
  const local = new Date(change.at + change.after).getUTCFullYear();
  return local >= 2020 && local <= 2035;
}

/** Wall-clock ms (read as UTC) → the expected fire instants under `rule`. */
function expected(change: Change, wall: number, rule: DstRule): number[] {
  if (change.after > change.before) {
    // A gap: walls in [at + before, at + after) do not exist.
    if (rule.gap === "skip") return [];
    if (rule.gap === "shift") return [wall - change.before];
    // gap_end: when the gap ends, on the same day; a gap that runs to midnight ends the next day,
    // so that day's time has no end to move to and does not fire (croner's and Vixie cron's rule).
    const sameDay =
      new Date(change.at + change.after).toISOString().slice(0, 10) ===
      new Date(wall).toISOString().slice(0, 10);
    return sameDay ? [change.at] : [];
  }
  // A repeat: walls in [at + after, at + before) happen first with the old offset, then the new.
  const first = wall - change.before;
  return rule.repeat === "twice" ? [first, wall - change.after] : [first];
}

const RULES: DstRule[] = DST_GAPS.flatMap((gap) => DST_REPEATS.map((repeat) => ({ gap, repeat })));

describe("the DST oracle, 2020–2035, every zone with DST", () => {
  it("fires every half hour of every gap and repeat as the independent computation says, under all six rules", () => {
    const zones = Intl.supportedValuesOf("timeZone");
    const changes = zones.flatMap(changesOf).filter(inYears);
    const zonesWithDst = new Set(changes.map((c) => c.zone));
    // Sanity: the world still has DST, Paris among it, and its changes were found.
    expect(zonesWithDst.size).toBeGreaterThan(50);
    expect(changes.filter((c) => c.zone === "Europe/Paris")).toHaveLength(32);

    const deviations: string[] = [];
    let checked = 0;
    const compiled = new Map<string, CompiledSchedule>();
    for (const change of changes) {
      const lo = change.at + Math.min(change.before, change.after);
      const hi = change.at + Math.max(change.before, change.after);
      for (let wall = Math.ceil(lo / (30 * MINUTE)) * 30 * MINUTE; wall < hi; wall += 30 * MINUTE) {
        const time = new Date(wall);
        const cron = `${time.getUTCMinutes()} ${time.getUTCHours()} * * *`;
        for (const rule of RULES) {
          const key = `${cron}|${change.zone}|${rule.gap}|${rule.repeat}`;
          const schedule = compiled.get(key) ?? compileSchedule(cron, change.zone, rule);
          if (!schedule) throw new Error(`${cron} did not compile`);
          compiled.set(key, schedule);
          // A daily schedule fires ~24 h apart, and every gap or repeat is at most 3 h long (Antarctica/Casey's), so
          // the fires within 4 h of the change are exactly the ones of this wall-clock time.
          const fires: number[] = [];
          for (
            let at = schedule.next(new Date(change.at - 4 * HOUR));
            at && at.getTime() <= change.at + 4 * HOUR;
            at = schedule.next(at)
          ) {
            fires.push(at.getTime());
          }
          const want = expected(change, wall, rule);
          checked += 1;
          if (fires.join() !== want.join()) {
            deviations.push(
              `${change.zone} ${time.toISOString().slice(0, 16)} ${rule.gap}/${rule.repeat}: ` +
                `fired ${fires.map((f) => new Date(f).toISOString()).join(", ") || "never"}, ` +
                `expected ${want.map((f) => new Date(f).toISOString()).join(", ") || "never"}`,
            );
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(10_000);

    expect(deviations.slice(0, 20)).toEqual([]);
  }, 120_000);
});
