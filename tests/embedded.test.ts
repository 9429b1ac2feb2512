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
