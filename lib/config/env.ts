import { z } from "zod";

/**
 * Terminology
 * - variable: one environment variable the code reads. Every one is listed below, once, with
 *   what it does (`description`), what it accepts (`accepts`, a phrase that completes "X must be
 *   …") and its default; nothing else in the code reads `process.env` (lib/config/README.md).
 * - config: the parsed, typed values (`Config`), read through `config()` (lib/config/config.ts).
 * - secret: a variable whose value is never printed, not even in the sentence that refuses it.
 *
 * `npm run env:docs` writes docs/deployment.md's tables and .env.example from this file.
 */

export type Group =
  "Web server" | "Database" | "Worker" | "Logs" | "Email" | "AI" | "Security" | "Development";

export interface VariableInfo {
  group: Group;
  /** What the variable does, in a sentence or two. */
  description: string;
  /** Completes "NAME must be …": what a value may look like. */
  accepts: string;
  /** The default as people read it ("10,000", "unset"). */
  defaultText: string;
  /** An example value for .env.example. */
  example?: string;
  /** Never printed. */
  secret?: boolean;
}

interface Variable<S extends z.ZodType> {
  schema: S;
  info: VariableInfo;
}

// An empty value (`FOO=` in a .env file) counts as unset, so it takes the default.
const unsetIfEmpty = (value: unknown) =>
  typeof value === "string" && value.trim() === "" ? undefined : value;

const number = new Intl.NumberFormat("en-US");

/** A whole number from `min` to `max`. */
function wholeNumber(min: number, max: number) {
  return {
    schema: z
      .string()
      .trim()
      .regex(/^-?\d+$/)
      .transform(Number)
      .pipe(z.number().int().min(min).max(max)),
    accepts: `a whole number from ${number.format(min)} to ${number.format(max)}`,
  };
}

const ON_WORDS = ["1", "true", "yes", "on"];
const OFF_WORDS = ["0", "false", "no", "off"];

/** A switch: 1/true/yes/on or 0/false/no/off, any case. */
const onOffSchema = z
  .string()
  .trim()
  .toLowerCase()
  .refine((text) => ON_WORDS.includes(text) || OFF_WORDS.includes(text))
  .transform((text) => ON_WORDS.includes(text));
const ON_OFF = "on, off, 1, 0, true, false, yes or no";

function variable<S extends z.ZodType>(
  schema: S,
  info: Omit<VariableInfo, "accepts"> & { accepts?: string },
): Variable<z.ZodPreprocess<S>> {
  return {
    schema: z.preprocess(unsetIfEmpty, schema).describe(info.description),
    info: { accepts: "any text", ...info },
  };
}

function whole(
  min: number,
  max: number,
  fallback: number,
  info: Omit<VariableInfo, "accepts" | "defaultText">,
) {
  const { schema, accepts } = wholeNumber(min, max);
  return variable(schema.default(fallback), { ...info, accepts, defaultText: number.format(fallback) });
}

function wholeOptional(min: number, max: number, info: Omit<VariableInfo, "accepts">) {
  const { schema, accepts } = wholeNumber(min, max);
  return variable(schema.optional(), { ...info, accepts });
}

function onOff(fallback: boolean, info: Omit<VariableInfo, "accepts" | "defaultText">) {
  return variable(onOffSchema.default(fallback), {
    ...info,
    accepts: ON_OFF,
    defaultText: fallback ? "on" : "off",
  });
}

function text(
  info: Omit<VariableInfo, "defaultText" | "accepts"> & { defaultText?: string; accepts?: string },
) {
  return variable(z.string().optional(), { defaultText: "unset", ...info });
}

function oneOf<const T extends readonly [string, ...string[]]>(
  values: T,
  info: Omit<VariableInfo, "accepts">,
  fallback?: T[number],
) {
  const accepts =
    values.length === 2
      ? `"${values[0]}" or "${values[1]}"`
      : `one of ${values
          .slice(0, -1)
          .map((v) => `"${v}"`)
          .join(", ")} or "${values.at(-1)}"`;
  const schema = fallback === undefined ? z.enum(values).optional() : z.enum(values).default(fallback);
  return variable(schema, { ...info, accepts });
}

const postgresUrl = z
  .string()
  .trim()
  .regex(/^postgres(ql)?:\/\//)
  .optional();

const httpUrl = z
  .string()
  .trim()
  .regex(/^https?:\/\/\S+$/)
  .optional();

/** Every environment variable the code reads, by name. */
export const VARIABLES = {
  // Web server
  PORT: whole(1, 65_535, 3000, {
    group: "Web server",
    description: "The port the web server listens on, on every interface.",
  }),
  NODE_ENV: oneOf(["development", "production", "test"], {
    group: "Web server",
    description:
      "Set by the launcher: `production` for `npm start` and the Docker image, `development` for `npm run dev`. Development relaxes the Content-Security-Policy for hot reload.",
    defaultText: "set by the launcher",
  }),
  NEXT_RUNTIME: oneOf(["nodejs", "edge"], {
    group: "Web server",
    description: "Set by Next.js for the code it runs; never set it yourself.",
    defaultText: "set by Next.js",
  }),
  BETTER_AUTH_URL: variable(httpUrl, {
    group: "Web server",
    description:
      "The app's public URL (`https://admin.example.com`): sign-in cookies and trusted origins are checked against it. Unset: `http://localhost:$PORT`.",
    accepts: "an http:// or https:// URL",
    defaultText: "http://localhost:$PORT",
    example: "https://admin.example.com",
  }),
  TRUSTED_PROXIES: text({
    group: "Web server",
    description:
      "Comma list of proxy addresses or CIDRs whose `X-Forwarded-For` is believed (rate limits count the real client).",
    accepts: "a comma list of IP addresses or CIDRs",
    example: "10.0.0.0/8",
  }),
  API_MAX_BODY_BYTES: whole(1, 100_000_000, 1_000_000, {
    group: "Web server",
    description: "The largest request body an API route reads, in bytes.",
  }),
  API_MAX_BATCH_BYTES: whole(1, 100_000_000, 5_000_000, {
    group: "Web server",
    description: "The largest array of events `POST /api/v1/events` reads, in bytes.",
  }),
  API_RATE_LIMIT_PER_MINUTE: whole(0, 100_000_000, 12_000, {
    group: "Web server",
    description: "Writes (PUT, PATCH, POST, DELETE) per API key per minute; 0 turns the limit off.",
  }),
  API_INGEST_RATE_LIMIT_PER_MINUTE: whole(0, 100_000_000, 120_000, {
    group: "Web server",
    description:
      "`POST /api/v1/events` requests per API key per minute (an array counts once); 0 turns it off.",
  }),
  AUTH_RATE_LIMIT: onOff(true, {
    group: "Security",
    description: "Limits sign-in and sign-up attempts per address; `off` only for load tests.",
  }),
  SIGN_IN_ATTEMPTS_PER_MINUTE: whole(1, 1_000_000, 10, {
    group: "Security",
    description: "Sign-in attempts per address per minute.",
  }),
  METRICS_TOKEN: text({
    group: "Security",
    description:
      "Bearer token for `GET /api/metrics` and a worker's metrics port. Unset: the web endpoint is off, the worker's port is open.",
    accepts: "any text",
    secret: true,
  }),
  BETTER_AUTH_SECRET: text({
    group: "Security",
    description:
      "Signs session cookies (`openssl rand -base64 32`). Required with more than one web server, the same on all of them. Unset: one is generated in the data directory (one machine only).",
    accepts: "at least 32 characters",
    defaultText: "generated in the data directory",
    secret: true,
  }),
  TILLFLOW_SECRET_KEY: text({
    group: "Security",
    description:
      "Encrypts credentials and shops' signing secrets at rest (`openssl rand -base64 32`). Required in every deployment, the same on every process, and kept: a secret stored under one key cannot be read under another. Unset: one is generated in the data directory (development only).",
    accepts: "32 bytes as base64 or 64 hex digits",
    defaultText: "generated in the data directory",
    secret: true,
  }),
  HTTP_ACTION_ALLOW: text({
    group: "Security",
    description:
      "Comma list of hosts or CIDRs the HTTP action may reach although they are private or loopback (development and tests: `127.0.0.1,localhost`).",
    accepts: "a comma list of hosts or CIDRs",
    example: "127.0.0.1,localhost",
  }),
  TILLFLOW_DEMO_SHOPS: whole(1, 8, 1, {
    group: "Development",
    description:
      'How many demo shops `npm start` seeds: the first is "demo" (admin@demo.test, …), the n-th "demo-n" (admin@demo-n.test, …), the same records and examples in each. The browser tests give each of their workers a shop of its own.',
  }),
  TILLFLOW_DEMO_PASSWORD: text({
    group: "Development",
    description: "The password of the demo shop's users (`tillflow seed`).",
    defaultText: "tillflow-demo",
    secret: true,
  }),

  // Database
  DATABASE_URL: variable(postgresUrl, {
    group: "Database",
    description:
      "Postgres connection string. Set it in every deployment. Unset: an embedded Postgres under the data directory is started or found (development only).",
    accepts: "a postgres:// or postgresql:// URL",
    defaultText: "the embedded database",
    example: "postgres://tillflow:secret@localhost:5432/tillflow",
    secret: true,
  }),
  DB_POOL_MAX: wholeOptional(1, 1_000, {
    group: "Database",
    description: "Connections in a process's drizzle pool.",
    defaultText: "10 (web), 20 (worker)",
  }),
  DB_MAX_LIFETIME_SECONDS: wholeOptional(1, 86_400, {
    group: "Database",
    description:
      "How long a pooled connection lives before it is replaced. Match a proxy's or failover's connection limit; the pool carries on across replacements.",
    defaultText: "postgres.js's own: 30 to 60 minutes",
  }),
  DB_STATEMENT_TIMEOUT_MS: wholeOptional(100, 3_600_000, {
    group: "Database",
    description:
      "The longest one statement of a process's pool may run before Postgres cancels it: one slow statement is an error for its request or job, not a stall for every shop.",
    defaultText: "30,000 (web), 120,000 (worker), none (others)",
  }),
  DB_APPLICATION_NAME: variable(z.string().trim().min(1).max(63).default("tillflow"), {
    group: "Database",
    description:
      "The name a process's connections show in `pg_stat_activity`, to tell web servers from workers.",
    accepts: "text of 1 to 63 characters",
    defaultText: "tillflow-web (web server), tillflow-worker (worker), tillflow (others)",
  }),
  TILLFLOW_DATA_DIR: text({
    group: "Database",
    description: "Where the embedded database and the generated secrets live.",
    accepts: "a directory path",
    defaultText: "./.data",
  }),
  TILLFLOW_MIGRATE: onOff(false, {
    group: "Database",
    description:
      "`1`: a worker applies migrations before it starts, even against a `DATABASE_URL` (else `tillflow migrate` does, once).",
  }),
  TILLFLOW_RESET: onOff(false, {
    group: "Development",
    description: "`1`: `npm run dev`/`npm start` wipe the embedded database first.",
  }),
  TILLFLOW_PG_DEBUG: onOff(false, {
    group: "Development",
    description: "Prints the embedded Postgres server's own output.",
  }),
  TILLFLOW_PG_PROFILE: onOff(false, {
    group: "Development",
    description: "Starts the embedded Postgres with statement statistics for profiling.",
  }),

  // Worker
  WORKER_CONCURRENCY: whole(1, 100_000, 10_000, {
    group: "Worker",
    description: "Jobs one worker process holds at once (most wait on a batch and hold no connection).",
  }),
  WORKER_LOCAL_QUEUE: whole(0, 100_000, 100, {
    group: "Worker",
    description:
      "Jobs fetched (and locked) per round trip; 0 or 1 fetches one job per query. Fetched jobs wait in the worker in the order they came, so a large value holds another shop's next job behind them.",
  }),
  WORKER_BATCH_SIZE: whole(1, 100_000, 500, {
    group: "Worker",
    description: "The largest batch of legs run together.",
  }),
  WORKER_BATCHES_IN_FLIGHT: whole(1, 1_000, 2, {
    group: "Worker",
    description: "Partial batches of legs running at once.",
  }),
  WORKER_BATCH_TRANSACTIONS: whole(1, 1_000, 2, {
    group: "Worker",
    description: "Batch transactions open at once per worker.",
  }),
  WORKER_OUTSIDE_CONCURRENCY: whole(1, 100_000, 32, {
    group: "Worker",
    description: "Outside calls (HTTP, SMTP, AI) in flight at once per worker.",
  }),
  CODE_THREADS: wholeOptional(1, 256, {
    group: "Worker",
    description: "Threads that run code steps.",
    defaultText: "2 to 4 (by cores)",
  }),
  SCHEDULE_FANOUT_BATCH: whole(1, 100_000, 1_000, {
    group: "Worker",
    description: "Runs a schedule's audience fan-out creates per job.",
  }),
  TILLFLOW_SCHEDULES: onOff(true, {
    group: "Worker",
    description: "`off` leaves the schedules' minute heartbeat out of the worker's crontab (browser tests).",
  }),
  TILLFLOW_METRICS_PORT: wholeOptional(1, 65_535, {
    group: "Worker",
    description: "Serves the worker's Prometheus metrics on this port (`GET /metrics`).",
    defaultText: "none",
  }),
  TILLFLOW_WORKER_DEAD_AFTER_MS: whole(100, 86_400_000, 15_000, {
    group: "Worker",
    description: "A worker silent this long (ms) is presumed dead and its jobs are released.",
  }),
  TILLFLOW_WORKER_BEAT_MS: whole(10, 86_400_000, 3_000, {
    group: "Worker",
    description: "How often a worker beats (ms); never more than a third of the dead-after time.",
  }),
  TILLFLOW_WORKER_SWEEP_EVERY_MS: whole(10, 86_400_000, 2_000, {
    group: "Worker",
    description: "How often a worker looks for dead peers (ms).",
  }),
  TILLFLOW_WEB: onOff(true, {
    group: "Development",
    description: "`off`: `npm start`/`npm run dev` start no web server (a worker-only machine).",
  }),
  TILLFLOW_WORKER: onOff(true, {
    group: "Development",
    description: "`off`: `npm start`/`npm run dev` start no worker (a web-only machine).",
  }),
  TILLFLOW_SKIP_BUILD_TYPECHECK: onOff(false, {
    group: "Development",
    description: "`1`: `next build` skips its own type check (the launcher sets it after `tsc`).",
  }),
  TILLFLOW_BUILD_CACHE: onOff(true, {
    group: "Development",
    description: "`off`: `next build` writes no Turbopack cache for the next build (`npm test` builds once).",
  }),

  // Logs
  LOG_LEVEL: oneOf(
    ["fatal", "error", "warn", "info", "debug", "trace", "silent"],
    {
      group: "Logs",
      description:
        "The lowest level logged. `debug` adds a line per leg and graphile-worker's per-job lines (docs/logging.md).",
      defaultText: "info",
    },
    "info",
  ),
  LOG_FORMAT: oneOf(["json", "pretty"], {
    group: "Logs",
    description: "`json`: one JSON object a line, to ship. `pretty`: coloured text for people (pino-pretty).",
    defaultText: "pretty on a terminal, json otherwise",
  }),

  // Email
  SMTP_URL: text({
    group: "Email",
    description:
      "Sends emails through this SMTP server (`smtp://user:pass@host:587`). Unset: emails stay in the outbox.",
    accepts: "an smtp:// or smtps:// URL",
    example: "smtp://user:pass@smtp.example.com:587",
    secret: true,
  }),
  SMTP_FROM: text({
    group: "Email",
    description: "The sender of emails.",
    defaultText: "Tillflow <no-reply@tillflow.local>",
  }),

  // AI
  STORE_API_BASE_URL: variable(httpUrl, {
    group: "Development",
    description:
      "Sends every Shopify Admin API and WooCommerce REST call to this origin instead of the store's own (`https://<shop>.myshopify.com`), for a local stand-in of the platforms in tests. Never set it in production: a store's token would go there.",
    accepts: "an http:// or https:// URL",
    defaultText: "unset (each store's own address)",
    example: "http://127.0.0.1:3292",
  }),
  AI_BASE_URL: variable(httpUrl, {
    group: "AI",
    description: "An OpenAI-compatible chat-completions endpoint for the AI builder and the AI step.",
    accepts: "an http:// or https:// URL",
    defaultText: "unset (AI off)",
    example: "http://localhost:11434/v1",
  }),
  AI_MODEL: text({
    group: "AI",
    description: "The model to ask (`llama3.1`, `gpt-4.1-mini`).",
    example: "llama3.1",
  }),
  AI_API_KEY: text({
    group: "AI",
    description: "The endpoint's key; local servers need none. Sent, never logged.",
    secret: true,
  }),
  AI_TIMEOUT_MS: whole(1, 3_600_000, 60_000, {
    group: "AI",
    description: "How long one answer may take (ms).",
  }),
  AI_STRUCTURED_OUTPUTS: onOff(true, {
    group: "AI",
    description: "`off` asks for a plain JSON answer, for servers without `json_schema` response formats.",
  }),
  AI_CALLS_PER_HOUR: whole(0, 100_000_000, 1_000, {
    group: "AI",
    description: "AI step calls per shop per hour by published flows' runs; 0 turns the limit off.",
  }),
  AI_CALLS_PER_SHOP_PER_HOUR: whole(0, 100_000_000, 200, {
    group: "AI",
    description:
      "Model calls per shop per hour by the AI builder (up to 2 a request) and the AI step's Try with the model; past it a 429. 0 turns the limit off.",
  }),
} as const;

/** A variable's name. */
export type EnvName = keyof typeof VARIABLES;
export const ENV_NAMES = Object.keys(VARIABLES) as EnvName[];

type Shape = { [K in EnvName]: (typeof VARIABLES)[K]["schema"] };

/** The one schema of every environment variable. */
export const envSchema = z.object(
  Object.fromEntries(ENV_NAMES.map((name) => [name, VARIABLES[name].schema])) as unknown as Shape,
);

/** The parsed environment. */
export type Config = z.output<typeof envSchema>;

/** The sentence that refuses a variable's value: "X must be … (got "…")." */
export function refusal(name: EnvName, value: string | undefined): string {
  const { accepts, secret } = VARIABLES[name].info;
  const got = secret || value === undefined ? "" : ` (got ${JSON.stringify(value)})`;
  return `${name} must be ${accepts}${got}.`;
}

/** A bad environment: one sentence per variable refused. */
export class ConfigError extends Error {
  constructor(readonly sentences: string[]) {
    super(sentences.join(" "));
    this.name = "ConfigError";
  }
}

/** Parses an environment; throws a ConfigError naming every variable it refuses. */
export function parseEnv(env: Readonly<Record<string, string | undefined>>): Config {
  const picked = Object.fromEntries(ENV_NAMES.map((name) => [name, env[name]]));
  const result = envSchema.safeParse(picked);
  if (result.success) return result.data;
  const names = [...new Set(result.error.issues.map((issue) => issue.path[0]))].filter(
    (name): name is EnvName => typeof name === "string" && name in VARIABLES,
  );
  throw new ConfigError(names.map((name) => refusal(name, env[name])));
}
