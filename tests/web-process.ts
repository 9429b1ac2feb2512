import { spawn, type ChildProcess } from "node:child_process";

export interface WebProcess {
  baseUrl: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/**
 * A web server process of its own (tests/web-process-main.ts) on DATABASE_URL: real HTTP, its own
 * event loop and its own script pool, so what a request makes it do (a dry run's scripts) is
 * measured from outside, as a merchant's browser would see it. `env` adds settings.
 */
export async function startWebProcess(env: Record<string, string> = {}): Promise<WebProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", "tests/web-process-main.ts"], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      const force = setTimeout(() => child.kill("SIGKILL"), 5_000);
      child.once("exit", () => {
        clearTimeout(force);
        resolve();
      });
      child.kill("SIGTERM");
    });
  const port = await new Promise<number>((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error("The web process did not listen within 60 s.")), 60_000);
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening (\d+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`The web process exited (code ${code}) before it listened.`));
    });
  }).catch(async (error: unknown) => {
    await stop();
    throw error;
  });
  return { baseUrl: `http://127.0.0.1:${port}`, child, stop };
}
