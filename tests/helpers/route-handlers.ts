import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { Method } from "@/lib/api/contract";
import type { Role } from "@/lib/identity/roles";
import type { call } from "./fixtures";

const ROOT = path.resolve(import.meta.dirname, "../..");
const METHODS: readonly Method[] = ["GET", "POST", "PUT", "PATCH", "DELETE"];

export type Handler = Parameters<typeof call>[0] & { role?: Role };

/** Every exported method of app/api/v1/**\/route.ts, by `METHOD /api/v1/path/{param}`. */
export async function routeHandlers(): Promise<Map<string, Handler>> {
  const found = new Map<string, Handler>();
  const files = fs
    .readdirSync(path.join(ROOT, "app/api/v1"), { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile() && d.name === "route.ts")
    .map((d) => path.join(d.parentPath, d.name));
  for (const file of files) {
    const mod = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
    const route = path
      .relative(path.join(ROOT, "app"), path.dirname(file))
      .split(path.sep)
      .map((segment) => segment.replace(/^\[(\w+)\]$/, "{$1}"))
      .join("/");
    for (const method of METHODS)
      if (typeof mod[method] === "function") found.set(`${method} /${route}`, mod[method] as Handler);
  }
  return found;
}
