import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, inject, test } from "vitest";
import { dataRoot, startOrFindEmbedded } from "@/lib/db/embedded";

// The test run's global setup started (or found) the embedded test cluster in another process.
// A second process must find that server through the port file instead of starting its own.
test.skipIf(!inject("embedded"))("a second process finds the running embedded cluster", async () => {
  const cluster = await startOrFindEmbedded(path.join(dataRoot(), "test-pg"));
  expect(cluster.owned).toBe(false);
  expect(new URL(cluster.serverUrl).port).toBe(new URL(inject("serverUrl")).port);
  await cluster.stop(); // not the owner: a no-op that must leave the server running
  const again = await startOrFindEmbedded(path.join(dataRoot(), "test-pg"));
  expect(again.port).toBe(cluster.port);
});

// As root the server runs as the system user `postgres`; a project it cannot reach (in /root, or
// in a `mktemp -d`) used to fail deep inside initdb with a raw spawn error.
test.skipIf(!inject("embedded") || process.getuid?.() !== 0)(
  "as root, a data dir the postgres user cannot enter is refused up front with a sentence saying what to do",
  async () => {
    const closed = fs.mkdtempSync(path.join(os.tmpdir(), "tillflow-closed-"));
    fs.chmodSync(closed, 0o700);
    try {
      await expect(startOrFindEmbedded(path.join(closed, "pg"))).rejects.toThrow(
        `The embedded database runs as the system user 'postgres', which cannot enter ${closed} ` +
          `(on the way to ${path.join(closed, "pg")}). Move the project to a directory postgres can reach`,
      );
      expect(fs.existsSync(path.join(closed, "pg", "PG_VERSION"))).toBe(false);
    } finally {
      fs.rmSync(closed, { recursive: true, force: true });
    }
  },
);
