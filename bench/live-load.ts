/**
 * Load generation for `bench -- live`: a keep-alive HTTP client and the two ways of offering load.
 *
 * - closed loop: `concurrency` callers, each sending its next request as soon as the last one
 *   answered, for a fixed time. Measures what the server can take.
 * - open loop: requests sent on a timer at a fixed rate, never waiting for replies (a slow server
 *   gets a queue, as it would from real clients). Measures latency at a given load.
 *
 * `node:http` rather than `fetch`: the client shares two cores with the server, the worker and the
 * database, and the plain client costs less CPU per request.
 */
import http from "node:http";

export interface Reply {
  status: number;
  body: string;
  /** From the call to the last byte of the reply, milliseconds. */
  ms: number;
}

/** Wall-clock milliseconds with sub-millisecond precision, comparable with the database's `now()`. */
export function wallMs(): number {
  return performance.timeOrigin + performance.now();
}

export class HttpClient {
  private readonly agent: http.Agent;
  private readonly url: URL;

  constructor(
    baseUrl: string,
    private readonly apiKey: string,
    sockets = 32,
  ) {
    this.url = new URL(baseUrl);
    this.agent = new http.Agent({ keepAlive: true, maxSockets: sockets, maxFreeSockets: sockets });
  }

  request(method: string, path: string, body?: unknown): Promise<Reply> {
    return this.send(method, path, body === undefined ? undefined : JSON.stringify(body));
  }

  /**
   * A request with a body already serialized and headers of the caller's own (a store's signed
   * webhook); the API key goes only where none of them replaces it.
   */
  send(
    method: string,
    path: string,
    payload?: string,
    extraHeaders: Record<string, string> = {},
  ): Promise<Reply> {
    const started = performance.now();
    return new Promise((resolve, reject) => {
      const req = http.request(
        {
          host: this.url.hostname,
          port: this.url.port,
          method,
          path,
          agent: this.agent,
          headers: {
            authorization: `Bearer ${this.apiKey}`,
            ...(payload === undefined
              ? {}
              : { "content-type": "application/json", "content-length": Buffer.byteLength(payload) }),
            ...extraHeaders,
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (chunk: Buffer) => chunks.push(chunk));
          res.on("end", () =>
            resolve({
              status: res.statusCode ?? 0,
              body: Buffer.concat(chunks).toString(),
              ms: performance.now() - started,
            }),
          );
          res.on("error", reject);
        },
      );
      req.on("error", reject);
      req.end(payload);
    });
  }

  /** Like `request`, but a reply other than `expected` is an error naming the call. */
  async expect<T>(method: string, path: string, expected: number[], body?: unknown): Promise<T> {
    const reply = await this.request(method, path, body);
    if (!expected.includes(reply.status)) {
      throw new Error(`${method} ${path} answered ${reply.status}: ${reply.body.slice(0, 500)}`);
    }
    return JSON.parse(reply.body) as T;
  }

  close(): void {
    this.agent.destroy();
  }
}

export interface LoopResult {
  /** Calls that finished (whatever they answered). */
  done: number;
  /** Calls that threw (connection errors); their count is not in the latencies. */
  failed: number;
  seconds: number;
  /** Latencies of the finished calls, ms, sorted. */
  latencies: number[];
}

/**
 * `concurrency` callers, each calling `send(i)` (i counts up across callers) again as soon as the
 * last call finished, until `durationMs` has passed; calls in flight then are waited for.
 */
export async function closedLoop(
  concurrency: number,
  durationMs: number,
  send: (i: number) => Promise<Reply>,
): Promise<LoopResult> {
  const latencies: number[] = [];
  let next = 0;
  let failed = 0;
  const started = performance.now();
  const deadline = started + durationMs;
  const caller = async () => {
    while (performance.now() < deadline) {
      try {
        latencies.push((await send(next++)).ms);
      } catch {
        failed++;
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, caller));
  return {
    done: latencies.length,
    failed,
    seconds: (performance.now() - started) / 1000,
    latencies: latencies.sort((a, b) => a - b),
  };
}

/**
 * Calls `send(i)` at `perSecond` for `durationMs` without waiting for replies. A 5 ms tick sends
 * however many calls are due by then, so timer lateness delays calls a little but never drops
 * or bunches them up over the run. Resolves when every reply is in.
 */
export async function openLoop(
  perSecond: number,
  durationMs: number,
  send: (i: number) => Promise<Reply>,
): Promise<LoopResult> {
  const total = Math.round((perSecond * durationMs) / 1000);
  const latencies: number[] = [];
  const pending: Promise<void>[] = [];
  let failed = 0;
  let sent = 0;
  const started = performance.now();
  await new Promise<void>((resolve) => {
    const tick = () => {
      const due = Math.min(total, Math.floor(((performance.now() - started) * perSecond) / 1000) + 1);
      while (sent < due) {
        pending.push(
          send(sent++).then(
            (reply) => void latencies.push(reply.ms),
            () => void failed++,
          ),
        );
      }
      if (sent >= total) {
        clearInterval(timer);
        resolve();
      }
    };
    const timer = setInterval(tick, 5);
    tick();
  });
  await Promise.all(pending);
  return {
    done: latencies.length,
    failed,
    seconds: (performance.now() - started) / 1000,
    latencies: latencies.sort((a, b) => a - b),
  };
}

/** Least-squares slope of `y` over `x`. */
export function slope(points: { x: number; y: number }[]): number {
  const n = points.length;
  if (n < 2) return 0;
  const mx = points.reduce((s, p) => s + p.x, 0) / n;
  const my = points.reduce((s, p) => s + p.y, 0) / n;
  const num = points.reduce((s, p) => s + (p.x - mx) * (p.y - my), 0);
  const den = points.reduce((s, p) => s + (p.x - mx) ** 2, 0);
  return den === 0 ? 0 : num / den;
}
