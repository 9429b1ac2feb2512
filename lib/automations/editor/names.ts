/**
 * An automation's name as the editor asks for it: "Start blank" used to save "Untitled
 * automation", and nothing stopped it being published so. Browser-safe.
 */
export const UNTITLED_NAME = "Untitled automation";

/** Whether publishing should ask for a name first: none given, or still the placeholder one. */
export function needsName(name: string): boolean {
  const trimmed = name.trim();
  return trimmed === "" || trimmed.toLowerCase() === UNTITLED_NAME.toLowerCase();
}
