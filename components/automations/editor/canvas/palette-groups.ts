import type { NodeInfo } from "@/lib/automations/nodes/catalog";

export interface PaletteGroup {
  title: string;
  items: NodeInfo[];
}

function groupOf(definition: NodeInfo): "Triggers" | "Timing" | "Conditions" | "Actions" {
  if (definition.category === "trigger") return "Triggers";
  // Timing steps defer what follows: the waits, and an action the merchant reads as one (Later).
  if (definition.category === "wait" || definition.paletteTiming) return "Timing";
  if (definition.category === "condition") return "Conditions";
  return "Actions";
}

const ORDER = ["Triggers", "Timing", "Conditions", "Actions"] as const;

function matches(definition: NodeInfo, words: string[]): boolean {
  const haystack = `${definition.label} ${definition.description} ${definition.type}`.toLowerCase();
  return words.every((word) => haystack.includes(word));
}

export interface PaletteOptions {
  /** Offer the platform jobs (`platform: true`), as a built-in automation's editor does. Default: hide them. */
  platform?: boolean;
}

/**
 * The palette: every node type of the catalog (the registry's, as the page sends it) in the groups merchants look for them in
 * (Triggers, Timing, Conditions, Actions), filtered by every word of `query`. Empty groups drop out.
 * Platform jobs are left out unless `options.platform` asks for them.
 */
export function paletteGroups(
  query: string,
  definitions: readonly NodeInfo[],
  options: PaletteOptions = {},
): PaletteGroup[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  const offered = options.platform ? definitions : definitions.filter((d) => !d.platform);
  return ORDER.map((title) => ({
    title,
    items: offered
      .filter((d) => groupOf(d) === title && matches(d, words))
      .sort((a, b) => rank(a, words) - rank(b, words)),
  })).filter((group) => group.items.length > 0);
}

/**
 * How well a step's name answers the query: 0 its name starts with it ("wait" → Wait), 1 its name
 * holds every word, 2 only its description or type does ("wait" → Run later). Sorting is stable, so
 * equals keep the registry's order.
 */
function rank(definition: NodeInfo, words: string[]): number {
  if (words.length === 0) return 0;
  const label = definition.label.toLowerCase();
  if (label.startsWith(words.join(" "))) return 0;
  return words.every((word) => label.includes(word)) ? 1 : 2;
}

/** Every match of every group, best-named first (the add-step search's list). */
export function rankedMatches(groups: PaletteGroup[], query: string): NodeInfo[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  const all = groups.flatMap((g) => g.items);
  return [...all].sort((a, b) => rank(a, words) - rank(b, words));
}

/** The step Enter adds: the best-named match in any group ("wait" → Wait, not Run later). */
export function bestMatch(groups: PaletteGroup[], query: string): NodeInfo | undefined {
  return rankedMatches(groups, query)[0];
}
