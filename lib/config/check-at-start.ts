import { configAtStart } from "./at-start";

/**
 * Imported first by every entry point (server/index.ts, worker/index.ts, bin/cli.ts): modules
 * read their settings as they load, so the environment is checked before any of them is, and a
 * bad value stops the process with its sentence instead of a stack trace.
 */
configAtStart();
