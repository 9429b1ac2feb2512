import fs from "node:fs";

const FULL = "/usr/bin/chromium";
const HEADLESS_SHELL = "/usr/bin/chromium-headless-shell";

/**
 * Which of Debian's Chromium builds the tests, Playwright and the benches drive: `CHROMIUM_PATH`
 * if set; else, headless, the headless shell (package `chromium-headless-shell`: the same version
 * without the full browser's UI, Playwright's own choice for headless) when it is installed, and
 * the full browser (`chromium`) otherwise. With both cores busy the shell ran the 153 end-to-end
 * tests in 8.9 minutes, the full browser in 14.6 (2026-12-07). `full` asks for the full browser:
 * a headed or debug run, and `bench -- editor-js`, which counts the scripts a first load fetches
 * before any use: in the shell the editor's lazy half (loaded at the first sign of use) came too in
 * 2 of 4 runs (357 KB gzip, 20 scripts), in the full browser never (275 KB, 17, 4 runs).
 */
export function chromiumPath(full = false): string {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  return !full && fs.existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : FULL;
}

/** Chromium's flags in a container: no sandbox, no GPU, no calls home. */
export const CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"];
