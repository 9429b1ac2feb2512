import { config } from "./config";
import { ConfigError, type Config } from "./env";

/** sysexits' EX_CONFIG: a supervisor can tell "fix the settings" from a crash. */
export const BAD_CONFIG_EXIT_CODE = 78;

/**
 * Parses the environment once, as a process (web server, worker, CLI) starts. On a bad value it
 * prints one sentence per variable it refuses, naming it and what it accepts, and exits with
 * code 78 — before the process touches the database or takes a job.
 */
export function configAtStart(): Config {
  try {
    return config();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    // Plain text on stderr, not a log line: the logger's own settings may be what is wrong.
    for (const sentence of error.sentences) process.stderr.write(`${sentence}\n`);
    process.exit(BAD_CONFIG_EXIT_CODE);
  }
}
