/** Joins class names, dropping the falsy ones, so variants read as plain conditions. */
export function cn(...classes: Array<string | false | null | undefined>): string {
  return classes.filter(Boolean).join(" ");
}
