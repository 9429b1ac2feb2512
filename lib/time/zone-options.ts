import { isTimeZone } from "@/lib/time/zones";

/**
 * The time zones a merchant picks from, labelled by city and offset ("Paris (Europe) · UTC+01:00")
 * rather than by IANA name alone, and searched by either. Browser-safe and pure but for the
 * runtime's zone list (`Intl.supportedValuesOf`, with "UTC", as `zones.ts` explains).
 */

export interface ZoneOption {
  /** The IANA name the params store: "Europe/Paris". */
  zone: string;
  /** "Paris (Europe) · UTC+01:00". */
  label: string;
  /** Minutes ahead of UTC at the instant the list was made (for sorting). */
  offsetMinutes: number;
}

/** "UTC+01:00" / "UTC−05:00" / "UTC+00:00": the zone's offset at `at`. */
export function zoneOffset(zone: string, at: Date): { text: string; minutes: number } {
  let name = "GMT";
  try {
    name =
      new Intl.DateTimeFormat("en-US", { timeZone: zone, timeZoneName: "longOffset" })
        .formatToParts(at)
        .find((part) => part.type === "timeZoneName")?.value ?? "GMT";
  } catch {
    // A zone the runtime does not know is shown as UTC's offset; `isTimeZone` reports it.
  }
  const match = /^GMT([+-])(\d{2}):(\d{2})$/.exec(name);
  if (!match) return { text: "UTC+00:00", minutes: 0 };
  const sign = match[1] === "-" ? -1 : 1;
  const minutes = sign * (Number(match[2]) * 60 + Number(match[3]));
  return { text: `UTC${sign < 0 ? "−" : "+"}${match[2]}:${match[3]}`, minutes };
}

/** "Paris (Europe)", "Buenos Aires (America, Argentina)", "UTC". */
export function zonePlace(zone: string): string {
  const parts = zone.split("/").map((part) => part.replace(/_/g, " "));
  if (parts.length === 1) return parts[0] ?? zone;
  const city = parts[parts.length - 1] ?? zone;
  return `${city} (${parts.slice(0, -1).join(", ")})`;
}

/** Just the city, for sentences: "Paris", "Buenos Aires", "UTC". */
export function zoneCity(zone: string): string {
  return (zone.split("/").pop() ?? zone).replace(/_/g, " ");
}

/** A zone as the picker shows it: "Paris (Europe) · UTC+01:00". */
export function zoneLabel(zone: string, at: Date): string {
  return `${zonePlace(zone)} · ${zoneOffset(zone, at).text}`;
}

let cache: { day: string; options: readonly ZoneOption[] } | undefined;

/**
 * Every zone the runtime knows, with "UTC", by offset then city. Offsets are today's (they move
 * with daylight saving), so the list is remade once a day.
 */
export function zoneOptions(at: Date = new Date()): readonly ZoneOption[] {
  const day = at.toISOString().slice(0, 10);
  if (cache?.day === day) return cache.options;
  const listed = typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : [];
  const options = [...new Set([...listed, "UTC"])]
    .map((zone): ZoneOption => {
      const offset = zoneOffset(zone, at);
      return { zone, label: `${zonePlace(zone)} · ${offset.text}`, offsetMinutes: offset.minutes };
    })
    .sort((a, b) => a.offsetMinutes - b.offsetMinutes || a.label.localeCompare(b.label));
  cache = { day, options };
  return options;
}

function normalise(text: string): string {
  return text
    .toLowerCase()
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[_/(),·]/g, " ");
}

/**
 * The options matching what the merchant typed: every word must appear in the zone's name or
 * label ("new york", "paris", "utc+09", "america"). The current zone is always kept, first, even
 * when it does not match or the runtime does not list it, so the picker never drops what is saved.
 */
export function searchZones(options: readonly ZoneOption[], query: string, current: string, at = new Date()) {
  const words = normalise(query).split(/\s+/).filter(Boolean);
  const matches = words.length
    ? options.filter((option) => {
        const haystack = normalise(`${option.zone} ${option.label}`);
        return words.every((word) => haystack.includes(word));
      })
    : options;
  if (!current) return matches;
  const kept = matches.find((option) => option.zone === current);
  if (kept) return [kept, ...matches.filter((option) => option !== kept)];
  const known = options.find((option) => option.zone === current);
  return [
    known ?? {
      zone: current,
      label: isTimeZone(current) ? zoneLabel(current, at) : `${current} (not a time zone)`,
      offsetMinutes: 0,
    },
    ...matches,
  ];
}
