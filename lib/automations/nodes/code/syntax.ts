import { parse } from "acorn";

/**
 * Whether a code step's source parses as a script body (a top-level `return` allowed), checked
 * without running it: by the editor as the merchant types and by `validate()` before publishing.
 * The sandbox reports the same mistakes when it runs; this finds them before a run does.
 */
export function syntaxError(source: string): { message: string; line: number } | null {
  try {
    parse(source, { ecmaVersion: 2023, sourceType: "script", allowReturnOutsideFunction: true });
    return null;
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    const { line } = (error as SyntaxError & { loc?: { line: number } }).loc ?? { line: 1 };
    // acorn appends " (line:column)"; say it the way the rest of the product does.
    return { message: error.message.replace(/\s*\(\d+:\d+\)$/, ""), line };
  }
}
