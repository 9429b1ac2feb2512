/**
 * The description a draft built from a sentence is saved with: the sentence, and what was assumed
 * on the way (browser-safe, pure). The editor shows it when it opens the draft (`?built=ai`), and
 * it stays on the automation as a record of where the flow came from.
 */

const MAX_DESCRIPTION = 2000;
export const BUILT_LEAD = "Built from the description: ";

export function builtDescription(prompt: string, notes: readonly string[]): string {
  const lines = [`${BUILT_LEAD}“${prompt.trim()}”`];
  if (notes.length > 0) lines.push(`Assumed: ${notes.join(" ")}`);
  const text = lines.join("\n");
  return text.length > MAX_DESCRIPTION ? `${text.slice(0, MAX_DESCRIPTION - 1)}…` : text;
}
