import http from "node:http";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, test } from "vitest";
import { executeRun, resumeWait } from "@/lib/automations/engine/pipeline";
import { getDb } from "@/lib/db/client";
import { automationRuns, automationRunWaits, entityNotes } from "@/lib/db/schema";
import { upsertEntity } from "@/lib/entities/service";
import { createShop } from "@/tests/helpers/shop";
import { flow, publishFlow } from "@/tests/helpers/flows";
import { closeServer, listenLocally } from "@/tests/helpers/receiver";

let server: http.Server;
let url: string;
let calls = 0;

beforeAll(async () => {
  // The first attempt is refused with a 503; every later one succeeds.
  server = http.createServer((_req, res) => {
    calls += 1;
    res.writeHead(calls === 1 ? 503 : 200);
    res.end("{}");
  });
  url = `${await listenLocally(server)}/hook`;
});

afterAll(async () => {
  await closeServer(server);
});

//  order_paid ──▶ call (503, then 200 on its retry) ──▶ note
//  The leg is cut short right after the 503 was recorded (its retry wait written) and replayed:
//  the replay must defer the note to the retry leg, as the first attempt did — one note, not two.
test("a replayed leg whose action failed and will be retried does not run what follows it", async () => {
  const shop = await createShop();
  const id = await publishFlow(
    shop.keys.editor,
    "Retry replay",
    flow(
      [
        { id: "t", type: "auto.trigger.order_paid" },
        {
          id: "call",
          type: "auto.action.http_request",
          params: { url, retry: { attempts: 3, backoff: "fixed", initialSeconds: 60 } },
        },
        { id: "note", type: "auto.action.add_note", params: { body: "Called" } },
      ],
      [
        ["t", "call"],
        ["call", "note"],
      ],
    ),
  );
  await upsertEntity(
    shop.tenant.id,
    "order",
    "rr-1",
    { number: "#1", status: "pending", total: 1, currency: "EUR" },
    "test",
  );
  await upsertEntity(
    shop.tenant.id,
    "order",
    "rr-1",
    { number: "#1", status: "paid", total: 1, currency: "EUR" },
    "test",
  );
  const [run] = await getDb().select().from(automationRuns).where(eq(automationRuns.automationId, id));
  await executeRun(run!.id);
  const notes = () =>
    getDb()
      .select()
      .from(entityNotes)
      .where(and(eq(entityNotes.tenantId, shop.tenant.id), eq(entityNotes.entityId, "rr-1")));
  expect(await notes()).toHaveLength(0);

  // As if the worker died before the leg's last phase committed: the run is still on its leg.
  await getDb().update(automationRuns).set({ status: "running" }).where(eq(automationRuns.id, run!.id));
  await executeRun(run!.id);
  expect(await notes()).toHaveLength(0);
  expect(calls).toBe(1);

  const [retry] = await getDb()
    .select()
    .from(automationRunWaits)
    .where(and(eq(automationRunWaits.runId, run!.id), eq(automationRunWaits.kind, "retry")));
  expect(await resumeWait(retry!.id)).toBe("resumed");
  expect(calls).toBe(2);
  expect(await notes()).toHaveLength(1);
  const [done] = await getDb().select().from(automationRuns).where(eq(automationRuns.id, run!.id));
  expect(done!.status).toBe("succeeded");
});
