/**
 * IANA time zones the runtime knows. `Intl.supportedValuesOf` lists canonical zones only and
 * leaves out "UTC" itself, which merchants expect to type, so it is added.
 */
let zones: ReadonlySet<string> | undefined;

export function isTimeZone(value: string): boolean {
  if (!zones) {
    const listed = typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : [];
    zones = new Set([...listed, "UTC"]);
  }
  return zones.has(value);
}

/** The zone of whoever is running this code (the merchant, in the editor), or UTC. */
export function localTimeZone(): string {
  try {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    return zone && isTimeZone(zone) ? zone : "UTC";
  } catch {
    return "UTC";
  }
}
