import { parentPort } from "node:worker_threads";
import { mapDelivery } from "./map";
import type { Mapped } from "./mapped";
import type { Platform } from "./platforms";

/** What the worker sends the thread: one stored body, as text. */
export interface MapTask {
  platform: Platform;
  topic: string;
  json: string;
}

/** What the thread answers: the body read, or why it could not be. */
export type MapReply = { ok: true; mapped: Mapped } | { ok: false; error: string };

const port = parentPort;
if (!port) throw new Error("map-thread.ts runs as the delivery thread of map-body.ts.");

port.on("message", ({ platform, topic, json }: MapTask) => {
  let reply: MapReply;
  try {
    reply = { ok: true, mapped: mapDelivery(platform, topic, JSON.parse(json)) };
  } catch (error) {
    reply = { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
  port.postMessage(reply);
});
