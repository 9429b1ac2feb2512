import path from "node:path";
import { Worker } from "node:worker_threads";
import { mapDelivery } from "./map";
import type { MapReply, MapTask } from "./map-thread";
import type { Mapped } from "./mapped";
import type { Platform } from "./platforms";

/**
 * A stored body past this is parsed and read on the delivery thread. An ordinary delivery (a few
 * KB, a big order a few hundred) is read here at once; a 2 MB body of 60,000 fields takes 100 ms
 * and more of CPU to parse and read, which on the worker's event loop would stop every shop's legs
 * meanwhile (issue 46: 100 ms at most).
 */
export const THREAD_BYTES = 256 * 1024;

// Resolved at run time, from the project's root, as the script pool's thread is.
const THREAD_FILE = path.join(/* turbopackIgnore: true */ process.cwd(), "lib/connections/map-thread.mjs");

/** A delivery's stored body (its JSON text) read as its platform's webhook of `topic`. */
export async function mapBody(platform: Platform, topic: string, json: string): Promise<Mapped> {
  if (json.length < THREAD_BYTES) return mapDelivery(platform, topic, JSON.parse(json));
  return deliveryThread().map({ platform, topic, json });
}

/**
 * One thread per process, started when the first large body comes, taking one body at a time (large
 * bodies are rare; each waits for the one before). A thread that fails or exits fails its body,
 * whose job retries, and the next body starts a fresh thread.
 */
class DeliveryThread {
  private worker: Worker | null = null;
  private queue: Promise<unknown> = Promise.resolve();

  map(task: MapTask): Promise<Mapped> {
    const mapped = this.queue.then(() => this.run(task));
    this.queue = mapped.catch(() => undefined);
    return mapped;
  }

  private run(task: MapTask): Promise<Mapped> {
    const worker = (this.worker ??= this.start());
    return new Promise<Mapped>((resolve, reject) => {
      const settle = () => {
        worker.off("message", onReply);
        worker.off("error", onBroken);
        worker.off("exit", onBroken);
      };
      const onReply = (reply: MapReply) => {
        settle();
        if (reply.ok) resolve(reply.mapped);
        else reject(new Error(`The delivery's body could not be read: ${reply.error}`));
      };
      const onBroken = (why: unknown) => {
        settle();
        this.worker = null;
        reject(new Error(`The delivery thread stopped while reading a body (${String(why)}).`));
      };
      worker.on("message", onReply);
      worker.on("error", onBroken);
      worker.on("exit", onBroken);
      worker.postMessage(task);
    });
  }

  private start(): Worker {
    const worker = new Worker(/* turbopackIgnore: true */ THREAD_FILE);
    // An idle thread does not keep the worker process alive.
    worker.unref();
    worker.on("exit", () => {
      if (this.worker === worker) this.worker = null;
    });
    return worker;
  }
}

let thread: DeliveryThread | null = null;
const deliveryThread = () => (thread ??= new DeliveryThread());
