/**
 * The schedule trigger's sentence builder, as pure functions over the five-field cron the node
 * stores (`auto.trigger.schedule {cron}`): a sentence choice ("Weekdays at 09:00") becomes a cron
 * expression, and a cron expression that is one of the sentences reads back as that choice.
 * Any other expression stays cron (the editor's "Advanced (cron)" view) and `describeCron`
 * puts it in plain English. Browser-safe; croner still decides what a cron means (`cron.ts`).
 */

/** A time of day on a 24-hour clock. */
export interface ClockTime {
  hour: number;
  minute: number;
}

/** ISO weekdays, Monday = 1 … Sunday = 7 (as "Wait until" stores them). */
export type IsoWeekday = 1 | 2 | 3 | 4 | 5 | 6 | 7;

export type ScheduleChoice =
  | ({ kind: "daily" } & ClockTime)
  | ({ kind: "weekdays" } & ClockTime)
  | ({ kind: "days"; days: IsoWeekday[] } & ClockTime)
  | { kind: "hours"; every: HourStep; minute: number }
  | ({ kind: "monthly"; day: number } & ClockTime);

export type ScheduleKind = ScheduleChoice["kind"];

/** "Every N hours" only offers steps that divide the day evenly, so the rhythm never stutters at midnight. */
export const HOUR_STEPS = [1, 2, 3, 4, 6, 8, 12] as const;
export type HourStep = (typeof HOUR_STEPS)[number];

/** The sentence kinds, in the order the form offers them, with the merchant's words. */
export const SCHEDULE_KINDS: readonly { kind: ScheduleKind; label: string }[] = [
  { kind: "daily", label: "Every day" },
  { kind: "weekdays", label: "Weekdays (Mon–Fri)" },
  { kind: "days", label: "Chosen days" },
  { kind: "hours", label: "Every few hours" },
  { kind: "monthly", label: "Once a month" },
];

export const DAY_NAMES: Readonly<Record<IsoWeekday, string>> = {
  1: "Monday",
  2: "Tuesday",
  3: "Wednesday",
  4: "Thursday",
  5: "Friday",
  6: "Saturday",
  7: "Sunday",
};

const ALL_DAYS: readonly IsoWeekday[] = [1, 2, 3, 4, 5, 6, 7];
const WORKING_DAYS: readonly IsoWeekday[] = [1, 2, 3, 4, 5];

/** "09:05". */
export function formatClock({ hour, minute }: ClockTime): string {
  return `${String(hour).padStart(2, "0")}:${String(minute).padStart(2, "0")}`;
}

/** "09:05" (or "9:05") as a time of day, or null. */
export function parseClock(value: string): ClockTime | null {
  const match = /^(\d{1,2}):(\d{2})$/.exec(value.trim());
  if (!match) return null;
  const hour = Number(match[1]);
  const minute = Number(match[2]);
  return hour <= 23 && minute <= 59 ? { hour, minute } : null;
}

/** Cron's day-of-week number (Sunday 0) of an ISO weekday. */
function cronDay(day: IsoWeekday): number {
  return day === 7 ? 0 : day;
}

/** The five-field cron expression of a sentence choice. */
export function choiceToCron(choice: ScheduleChoice): string {
  switch (choice.kind) {
    case "daily":
      return `${choice.minute} ${choice.hour} * * *`;
    case "weekdays":
      return `${choice.minute} ${choice.hour} * * 1-5`;
    case "days": {
      const days = sortDays(choice.days);
      return `${choice.minute} ${choice.hour} * * ${days.map(cronDay).join(",")}`;
    }
    case "hours":
      return `${choice.minute} ${choice.every === 1 ? "*" : `*/${choice.every}`} * * *`;
    case "monthly":
      return `${choice.minute} ${choice.hour} ${choice.day} * *`;
  }
}

function sortDays(days: readonly IsoWeekday[]): IsoWeekday[] {
  return [...new Set(days)].sort((a, b) => a - b);
}

/** A plain number within bounds (no leading "+", no steps), or null. */
function plain(field: string, min: number, max: number): number | null {
  if (!/^\d{1,2}$/.test(field)) return null;
  const value = Number(field);
  return value >= min && value <= max ? value : null;
}

const DAY_CODES: Readonly<Record<string, number>> = {
  SUN: 0,
  MON: 1,
  TUE: 2,
  WED: 3,
  THU: 4,
  FRI: 5,
  SAT: 6,
};

function dayNumber(token: string): number | null {
  const upper = token.toUpperCase();
  if (upper in DAY_CODES) return DAY_CODES[upper] ?? null;
  return plain(token, 0, 7);
}

/** The ISO weekdays a day-of-week field of numbers, names, lists and ranges names; null for anything else. */
function readDays(field: string): IsoWeekday[] | null {
  const days = new Set<IsoWeekday>();
  for (const part of field.split(",")) {
    const range = part.split("-");
    if (range.length > 2) return null;
    const from = dayNumber(range[0] ?? "");
    const to = range.length === 2 ? dayNumber(range[1] ?? "") : from;
    if (from === null || to === null || to < from) return null;
    for (let day = from; day <= to; day++) days.add((day === 0 ? 7 : day) as IsoWeekday);
  }
  return sortDays([...days]);
}

function sameDays(a: readonly IsoWeekday[], b: readonly IsoWeekday[]): boolean {
  return a.length === b.length && a.every((day, i) => day === b[i]);
}

/**
 * The sentence a cron expression is, or null when it is not one of them (then the editor shows
 * it as cron). Reading is lenient where the meaning is the same (`MON-FRI` is Weekdays, `0,6`
 * are chosen days); `choiceToCron` of the result may therefore spell it differently.
 */
export function cronToChoice(expression: string): ScheduleChoice | null {
  const fields = expression.trim().split(/\s+/);
  if (fields.length !== 5) return null;
  const [minuteField = "", hourField = "", dom = "", month = "", dow = ""] = fields;
  const minute = plain(minuteField, 0, 59);
  if (minute === null || month !== "*") return null;

  if (dom === "*" && dow === "*") {
    const step = hourField === "*" ? 1 : /^\*\/(\d{1,2})$/.exec(hourField)?.[1];
    if (step !== undefined) {
      const every = HOUR_STEPS.find((n) => n === Number(step));
      return every === undefined ? null : { kind: "hours", every, minute };
    }
  }
  const hour = plain(hourField, 0, 23);
  if (hour === null) return null;
  if (dow === "*") {
    if (dom === "*") return { kind: "daily", hour, minute };
    const day = plain(dom, 1, 31);
    return day === null ? null : { kind: "monthly", day, hour, minute };
  }
  if (dom !== "*") return null;
  const days = readDays(dow);
  if (!days || days.length === 0) return null;
  if (sameDays(days, ALL_DAYS)) return { kind: "daily", hour, minute };
  if (sameDays(days, WORKING_DAYS)) return { kind: "weekdays", hour, minute };
  return { kind: "days", days, hour, minute };
}

function ordinal(n: number): string {
  const tens = n % 100;
  if (tens >= 11 && tens <= 13) return `${n}th`;
  return `${n}${["th", "st", "nd", "rd"][n % 10] ?? "th"}`;
}

/** "Monday, Wednesday and Friday". */
function listWords(words: readonly string[]): string {
  if (words.length <= 1) return words.join("");
  return `${words.slice(0, -1).join(", ")} and ${words[words.length - 1]}`;
}

/** A sentence choice in words: "Every weekday (Monday to Friday) at 09:00". */
export function describeChoice(choice: ScheduleChoice): string {
  switch (choice.kind) {
    case "daily":
      return `Every day at ${formatClock(choice)}`;
    case "weekdays":
      return `Every weekday (Monday to Friday) at ${formatClock(choice)}`;
    case "days":
      return `Every ${listWords(sortDays(choice.days).map((day) => DAY_NAMES[day]))} at ${formatClock(choice)}`;
    case "hours": {
      const past = choice.minute === 0 ? "on the hour" : `at ${choice.minute} minutes past`;
      return choice.every === 1
        ? `Every hour, ${past}`
        : `Every ${choice.every} hours from midnight, ${past}`;
    }
    case "monthly":
      return `On the ${ordinal(choice.day)} of every month at ${formatClock(choice)}${
        choice.day > 28 ? " (months without that day are skipped)" : ""
      }`;
  }
}

const MONTH_NAMES = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];
const MONTH_CODES = MONTH_NAMES.map((name) => name.slice(0, 3).toUpperCase());
const CRON_DAY_NAMES = [
  "Sunday",
  "Monday",
  "Tuesday",
  "Wednesday",
  "Thursday",
  "Friday",
  "Saturday",
  "Sunday",
];

/** One value of a field in words (a month or weekday name where it is one), or null. */
function valueWord(
  token: string,
  words?: readonly string[],
  codes?: readonly string[],
  base = 0,
): string | null {
  const code = codes?.indexOf(token.toUpperCase()) ?? -1;
  if (code >= 0 && words) return words[code] ?? null;
  if (!/^\d+$/.test(token)) return null;
  return words ? (words[Number(token) - base] ?? null) : token;
}

/** A field's list / range / step in words ("Monday to Friday", "every 15", "1, 15"), or null. */
function fieldWords(
  field: string,
  words?: readonly string[],
  codes?: readonly string[],
  base = 0,
): string | null {
  const parts = field.split(",").map((part) => {
    const [range = "", step] = part.split("/");
    const stepWords = step === undefined ? "" : /^\d+$/.test(step) ? ` every ${step}` : null;
    if (stepWords === null) return null;
    if (range === "*") return step === undefined ? "every" : `every ${step}`;
    const [from = "", to] = range.split("-");
    const first = valueWord(from, words, codes, base);
    const last = to === undefined ? null : valueWord(to, words, codes, base);
    if (first === null || (to !== undefined && last === null)) return null;
    return `${to === undefined ? first : `${first} to ${last}`}${stepWords}`;
  });
  return parts.some((part) => part === null) ? null : listWords(parts as string[]);
}

/** The times of day a written-out minute and hour make, if there are few: "09:00 and 17:30". */
function clockWords(minuteField: string, hourField: string): string | null {
  const minutes = minuteField.split(",").map((m) => plain(m, 0, 59));
  const hours = hourField.split(",").map((h) => plain(h, 0, 23));
  if (minutes.includes(null) || hours.includes(null) || minutes.length * hours.length > 6) return null;
  const times = (hours as number[]).flatMap((hour) =>
    (minutes as number[]).map((minute) => formatClock({ hour, minute })),
  );
  return listWords(times);
}

/**
 * Any five-field cron expression in plain English, as well as words allow: the sentence it is
 * when it is one ("Every weekday (Monday to Friday) at 09:00"), otherwise field by field
 * ("Every 15 minutes, on Monday to Friday, in January and July"). An expression croner would
 * refuse is described as well as it reads; `cronProblem` says what is wrong with it.
 */
export function describeCron(expression: string): string {
  const choice = cronToChoice(expression);
  if (choice) return describeChoice(choice);
  const fields = expression.trim().split(/\s+/);
  if (fields.length !== 5) return "Not a five-field cron expression";
  const [minuteField = "", hourField = "", dom = "", month = "", dow = ""] = fields;

  let when: string;
  const clock = clockWords(minuteField, hourField);
  if (clock) when = `At ${clock}`;
  else if (minuteField === "*" && hourField === "*") when = "Every minute";
  else if (/^\*\/\d+$/.test(minuteField) && hourField === "*") when = `Every ${minuteField.slice(2)} minutes`;
  else {
    const minuteWords = fieldWords(minuteField);
    const hourWords = fieldWords(hourField);
    if (minuteWords === null || hourWords === null) return `Cron ${expression.trim()}`;
    const minutePart =
      minuteField === "*"
        ? "Every minute"
        : /^\*\/\d+$/.test(minuteField)
          ? `Every ${minuteField.slice(2)} minutes`
          : `At minute ${minuteWords}`;
    when = /^\*\/\d+$/.test(hourField)
      ? `${minutePart}, every ${hourField.slice(2)} hours`
      : hourField === "*"
        ? `${minutePart} of every hour`
        : `${minutePart}, during hours ${hourWords}`;
  }

  const days: string[] = [];
  if (dom !== "*") {
    const words = fieldWords(dom);
    if (words === null) return `Cron ${expression.trim()}`;
    days.push(`on day ${words} of the month`);
  }
  if (dow !== "*") {
    const words = fieldWords(dow, CRON_DAY_NAMES, Object.keys(DAY_CODES));
    if (words === null) return `Cron ${expression.trim()}`;
    days.push(`on ${words}`);
  }
  const parts = [when, days.length === 0 ? "every day" : days.join(" or ")];
  if (month !== "*") {
    const words = fieldWords(month, MONTH_NAMES, MONTH_CODES, 1);
    if (words === null) return `Cron ${expression.trim()}`;
    parts.push(`in ${words}`);
  }
  return parts.join(", ");
}

/**
 * The sentence to start the form on when the merchant leaves "Advanced (cron)" for a cron that
 * is not a sentence: every day, at the expression's written-out time if it has one, else 09:00.
 */
export function fallbackChoice(expression: string): ScheduleChoice {
  const [minuteField = "", hourField = ""] = expression.trim().split(/\s+/);
  const minute = plain(minuteField, 0, 59);
  const hour = plain(hourField, 0, 23);
  return minute !== null && hour !== null
    ? { kind: "daily", hour, minute }
    : { kind: "daily", hour: 9, minute: 0 };
}

/** The choice after the merchant picks another kind: the time of day carries over. */
export function switchKind(choice: ScheduleChoice, kind: ScheduleKind): ScheduleChoice {
  if (choice.kind === kind) return choice;
  const clock: ClockTime =
    choice.kind === "hours"
      ? { hour: 9, minute: choice.minute }
      : { hour: choice.hour, minute: choice.minute };
  switch (kind) {
    case "daily":
    case "weekdays":
      return { kind, ...clock };
    case "days":
      return { kind, days: [...WORKING_DAYS], ...clock };
    case "hours":
      return { kind, every: 2, minute: clock.minute };
    case "monthly":
      return { kind, day: 1, ...clock };
  }
}
