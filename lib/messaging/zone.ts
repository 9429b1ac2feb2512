import { isTimeZone } from "@/lib/time/zones";

/**
 * A customer's own time zone, which quiet hours are read in (issue 51, item 3). Pure and
 * browser-safe. In order:
 *
 * 1. their `timezone` field (an IANA zone such as `Europe/Berlin`);
 * 2. their address: the country (`countryCode`, or `country` as a code or an English name) and,
 *    for a country spanning several zones, the province or state (`US`/`CA`/`AU`/`BR`/`MX`/`RU`/
 *    `ID`/`KZ`/`CL`/`AR`… are in `SPANNING`); a spanning country without a known province takes
 *    the zone of its most populous region (the United States: New York's; Canada: Toronto's;
 *    Australia: Sydney's; Brazil: São Paulo's; Mexico: Mexico City's; Russia: Moscow's; Indonesia:
 *    Jakarta's). docs/customers-and-consent.md states the same table;
 * 3. else the shop's zone.
 */

export type ZoneSource = "customer" | "address" | "shop";

export interface CustomerZone {
  zone: string;
  source: ZoneSource;
}

interface Spanning {
  /** The zone of the most populous region: used when the province is missing or unknown. */
  main: string;
  /** Province or state (code or English name, lower case) → zone. */
  provinces: Record<string, string>;
}

/** Provinces written as code and as name, both lower case: `ca` and `california`. */
function provinces(entries: [string, string, string][]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [code, name, zone] of entries) {
    out[code.toLowerCase()] = zone;
    out[name.toLowerCase()] = zone;
  }
  return out;
}

const US_EAST = "America/New_York";
const US_CENTRAL = "America/Chicago";
const US_MOUNTAIN = "America/Denver";
const US_PACIFIC = "America/Los_Angeles";

/** Countries spanning several zones. A state spanning two takes its most populous part's zone. */
export const SPANNING: Record<string, Spanning> = {
  US: {
    main: US_EAST,
    provinces: provinces([
      ["AL", "Alabama", US_CENTRAL],
      ["AK", "Alaska", "America/Anchorage"],
      ["AZ", "Arizona", "America/Phoenix"],
      ["AR", "Arkansas", US_CENTRAL],
      ["CA", "California", US_PACIFIC],
      ["CO", "Colorado", US_MOUNTAIN],
      ["CT", "Connecticut", US_EAST],
      ["DE", "Delaware", US_EAST],
      ["DC", "District of Columbia", US_EAST],
      ["FL", "Florida", US_EAST],
      ["GA", "Georgia", US_EAST],
      ["HI", "Hawaii", "Pacific/Honolulu"],
      ["ID", "Idaho", "America/Boise"],
      ["IL", "Illinois", US_CENTRAL],
      ["IN", "Indiana", "America/Indiana/Indianapolis"],
      ["IA", "Iowa", US_CENTRAL],
      ["KS", "Kansas", US_CENTRAL],
      ["KY", "Kentucky", US_EAST],
      ["LA", "Louisiana", US_CENTRAL],
      ["ME", "Maine", US_EAST],
      ["MD", "Maryland", US_EAST],
      ["MA", "Massachusetts", US_EAST],
      ["MI", "Michigan", "America/Detroit"],
      ["MN", "Minnesota", US_CENTRAL],
      ["MS", "Mississippi", US_CENTRAL],
      ["MO", "Missouri", US_CENTRAL],
      ["MT", "Montana", US_MOUNTAIN],
      ["NE", "Nebraska", US_CENTRAL],
      ["NV", "Nevada", US_PACIFIC],
      ["NH", "New Hampshire", US_EAST],
      ["NJ", "New Jersey", US_EAST],
      ["NM", "New Mexico", US_MOUNTAIN],
      ["NY", "New York", US_EAST],
      ["NC", "North Carolina", US_EAST],
      ["ND", "North Dakota", US_CENTRAL],
      ["OH", "Ohio", US_EAST],
      ["OK", "Oklahoma", US_CENTRAL],
      ["OR", "Oregon", US_PACIFIC],
      ["PA", "Pennsylvania", US_EAST],
      ["RI", "Rhode Island", US_EAST],
      ["SC", "South Carolina", US_EAST],
      ["SD", "South Dakota", US_CENTRAL],
      ["TN", "Tennessee", US_CENTRAL],
      ["TX", "Texas", US_CENTRAL],
      ["UT", "Utah", US_MOUNTAIN],
      ["VT", "Vermont", US_EAST],
      ["VA", "Virginia", US_EAST],
      ["WA", "Washington", US_PACIFIC],
      ["WV", "West Virginia", US_EAST],
      ["WI", "Wisconsin", US_CENTRAL],
      ["WY", "Wyoming", US_MOUNTAIN],
      ["PR", "Puerto Rico", "America/Puerto_Rico"],
    ]),
  },
  CA: {
    main: "America/Toronto",
    provinces: provinces([
      ["ON", "Ontario", "America/Toronto"],
      ["QC", "Quebec", "America/Toronto"],
      ["BC", "British Columbia", "America/Vancouver"],
      ["AB", "Alberta", "America/Edmonton"],
      ["MB", "Manitoba", "America/Winnipeg"],
      ["SK", "Saskatchewan", "America/Regina"],
      ["NS", "Nova Scotia", "America/Halifax"],
      ["NB", "New Brunswick", "America/Moncton"],
      ["PE", "Prince Edward Island", "America/Halifax"],
      ["NL", "Newfoundland and Labrador", "America/St_Johns"],
      ["YT", "Yukon", "America/Whitehorse"],
      ["NT", "Northwest Territories", "America/Yellowknife"],
      ["NU", "Nunavut", "America/Iqaluit"],
    ]),
  },
  AU: {
    main: "Australia/Sydney",
    provinces: provinces([
      ["NSW", "New South Wales", "Australia/Sydney"],
      ["VIC", "Victoria", "Australia/Melbourne"],
      ["QLD", "Queensland", "Australia/Brisbane"],
      ["WA", "Western Australia", "Australia/Perth"],
      ["SA", "South Australia", "Australia/Adelaide"],
      ["TAS", "Tasmania", "Australia/Hobart"],
      ["ACT", "Australian Capital Territory", "Australia/Sydney"],
      ["NT", "Northern Territory", "Australia/Darwin"],
    ]),
  },
  BR: {
    main: "America/Sao_Paulo",
    provinces: provinces([
      ["AM", "Amazonas", "America/Manaus"],
      ["MT", "Mato Grosso", "America/Cuiaba"],
      ["MS", "Mato Grosso do Sul", "America/Campo_Grande"],
      ["RO", "Rondônia", "America/Porto_Velho"],
      ["RR", "Roraima", "America/Boa_Vista"],
      ["AC", "Acre", "America/Rio_Branco"],
      ["BA", "Bahia", "America/Bahia"],
      ["PE", "Pernambuco", "America/Recife"],
      ["CE", "Ceará", "America/Fortaleza"],
      ["PA", "Pará", "America/Belem"],
    ]),
  },
  MX: {
    main: "America/Mexico_City",
    provinces: provinces([
      ["BC", "Baja California", "America/Tijuana"],
      ["SON", "Sonora", "America/Hermosillo"],
      ["CHH", "Chihuahua", "America/Chihuahua"],
      ["SIN", "Sinaloa", "America/Mazatlan"],
      ["BCS", "Baja California Sur", "America/Mazatlan"],
      ["ROO", "Quintana Roo", "America/Cancun"],
    ]),
  },
  RU: {
    main: "Europe/Moscow",
    provinces: provinces([
      ["KGD", "Kaliningrad", "Europe/Kaliningrad"],
      ["SAM", "Samara", "Europe/Samara"],
      ["SVE", "Sverdlovsk", "Asia/Yekaterinburg"],
      ["NVS", "Novosibirsk", "Asia/Novosibirsk"],
      ["KYA", "Krasnoyarsk", "Asia/Krasnoyarsk"],
      ["IRK", "Irkutsk", "Asia/Irkutsk"],
      ["PRI", "Primorsky", "Asia/Vladivostok"],
      ["KAM", "Kamchatka", "Asia/Kamchatka"],
    ]),
  },
  ID: {
    main: "Asia/Jakarta",
    provinces: provinces([
      ["BA", "Bali", "Asia/Makassar"],
      ["SN", "South Sulawesi", "Asia/Makassar"],
      ["PA", "Papua", "Asia/Jayapura"],
    ]),
  },
  KZ: { main: "Asia/Almaty", provinces: {} },
  CL: { main: "America/Santiago", provinces: provinces([["VS", "Easter Island", "Pacific/Easter"]]) },
  AR: { main: "America/Argentina/Buenos_Aires", provinces: {} },
  ES: { main: "Europe/Madrid", provinces: provinces([["CN", "Canary Islands", "Atlantic/Canary"]]) },
  PT: { main: "Europe/Lisbon", provinces: provinces([["20", "Azores", "Atlantic/Azores"]]) },
  NZ: { main: "Pacific/Auckland", provinces: {} },
  CD: { main: "Africa/Kinshasa", provinces: {} },
  MN: { main: "Asia/Ulaanbaatar", provinces: {} },
};

/** Countries in one zone (or whose other zones hold few people), by ISO 3166 code. */
export const SINGLE: Record<string, string> = {
  GB: "Europe/London",
  IE: "Europe/Dublin",
  FR: "Europe/Paris",
  DE: "Europe/Berlin",
  NL: "Europe/Amsterdam",
  BE: "Europe/Brussels",
  LU: "Europe/Luxembourg",
  CH: "Europe/Zurich",
  AT: "Europe/Vienna",
  IT: "Europe/Rome",
  DK: "Europe/Copenhagen",
  NO: "Europe/Oslo",
  SE: "Europe/Stockholm",
  FI: "Europe/Helsinki",
  IS: "Atlantic/Reykjavik",
  PL: "Europe/Warsaw",
  CZ: "Europe/Prague",
  SK: "Europe/Bratislava",
  HU: "Europe/Budapest",
  RO: "Europe/Bucharest",
  BG: "Europe/Sofia",
  GR: "Europe/Athens",
  TR: "Europe/Istanbul",
  UA: "Europe/Kyiv",
  EE: "Europe/Tallinn",
  LV: "Europe/Riga",
  LT: "Europe/Vilnius",
  SI: "Europe/Ljubljana",
  HR: "Europe/Zagreb",
  RS: "Europe/Belgrade",
  IL: "Asia/Jerusalem",
  AE: "Asia/Dubai",
  SA: "Asia/Riyadh",
  EG: "Africa/Cairo",
  ZA: "Africa/Johannesburg",
  NG: "Africa/Lagos",
  KE: "Africa/Nairobi",
  MA: "Africa/Casablanca",
  IN: "Asia/Kolkata",
  PK: "Asia/Karachi",
  BD: "Asia/Dhaka",
  CN: "Asia/Shanghai",
  HK: "Asia/Hong_Kong",
  TW: "Asia/Taipei",
  JP: "Asia/Tokyo",
  KR: "Asia/Seoul",
  SG: "Asia/Singapore",
  MY: "Asia/Kuala_Lumpur",
  TH: "Asia/Bangkok",
  VN: "Asia/Ho_Chi_Minh",
  PH: "Asia/Manila",
  CO: "America/Bogota",
  PE: "America/Lima",
  VE: "America/Caracas",
  UY: "America/Montevideo",
};

/** English country names a store may send instead of the code. */
const NAMES: Record<string, string> = {
  "united states": "US",
  "united states of america": "US",
  usa: "US",
  canada: "CA",
  australia: "AU",
  brazil: "BR",
  mexico: "MX",
  russia: "RU",
  "russian federation": "RU",
  indonesia: "ID",
  kazakhstan: "KZ",
  chile: "CL",
  argentina: "AR",
  spain: "ES",
  portugal: "PT",
  "new zealand": "NZ",
  "united kingdom": "GB",
  "great britain": "GB",
  ireland: "IE",
  france: "FR",
  germany: "DE",
  netherlands: "NL",
  belgium: "BE",
  switzerland: "CH",
  austria: "AT",
  italy: "IT",
  denmark: "DK",
  norway: "NO",
  sweden: "SE",
  finland: "FI",
  poland: "PL",
  japan: "JP",
  china: "CN",
  india: "IN",
  singapore: "SG",
  "south africa": "ZA",
};

/** Zones Intl lists under another name, and names it refused: what `knownZone` found. */
const aliases = new Map<string, boolean>();

/**
 * Whether Intl knows the zone, by its canonical name or an alias: `Intl.supportedValuesOf` lists
 * some zones by their older names (Asia/Calcutta for Asia/Kolkata), so `isTimeZone` alone would
 * refuse a customer's `Asia/Kolkata`.
 */
export function knownZone(zone: string): boolean {
  if (isTimeZone(zone)) return true;
  let known = aliases.get(zone);
  if (known === undefined) {
    try {
      new Intl.DateTimeFormat("en-US", { timeZone: zone });
      known = zone.includes("/");
    } catch {
      known = false;
    }
    // Remembered (a formatter is costly to make, and the gate asks for every message); the
    // names come from customers' records, so only so many.
    if (aliases.size < 1_000) aliases.set(zone, known);
  }
  return known;
}

const text = (value: unknown) => (typeof value === "string" && value.trim() ? value.trim() : null);

/** A country (code or English name) as its ISO code, or null when it is not one we know. */
export function countryCode(value: string): string | null {
  const upper = value.toUpperCase();
  if (SPANNING[upper] || SINGLE[upper]) return upper;
  return NAMES[value.toLowerCase()] ?? null;
}

/** The zone an address gives: null when the country is missing or not in the tables. */
export function addressZone(country: string | null, province: string | null): string | null {
  const code = country ? countryCode(country) : null;
  if (!code) return null;
  const spanning = SPANNING[code];
  if (!spanning) return SINGLE[code] ?? null;
  return (province && spanning.provinces[province.toLowerCase()]) || spanning.main;
}

/** The zone quiet hours are read in for a customer whose record is `data`. */
export function customerZone(data: Record<string, unknown> | null, shopZone: string): CustomerZone {
  const own = text(data?.timezone);
  if (own && knownZone(own)) return { zone: own, source: "customer" };
  const address = data?.shippingAddress as Record<string, unknown> | undefined;
  const country =
    text(data?.countryCode) ?? text(data?.country) ?? text(address?.countryCode) ?? text(address?.country);
  const province = text(data?.province) ?? text(address?.province);
  const fromAddress = addressZone(country, province);
  if (fromAddress) return { zone: fromAddress, source: "address" };
  return { zone: shopZone, source: "shop" };
}
