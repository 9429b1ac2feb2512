import { apiRoute, json, MAX_BATCH_BYTES, MAX_BODY_BYTES, readJsonSized, tooLarge } from "@/lib/api/route";
import { ingestEvent, ingestEvents } from "@/lib/automations/engine/start/api";

/**
 * One event `{ id?, type, domain, entityId, payload? }` → the event and `duplicate` (201, or 200 for a
 * repeat), or an array of 1..1,000 of them → `{ items: [{ id, duplicate }] }` in input order (201 when
 * any was new, 200 when all were repeats).
 */
export const POST = apiRoute({ role: "editor", limit: "ingest" }, async ({ req, caller }) => {
  const { value, bytes } = await readJsonSized(req, {
    maxBytes: MAX_BATCH_BYTES,
    hint: "That is the most this endpoint accepts, for an array of up to 1,000 events; send fewer events per request.",
  });
  if (Array.isArray(value)) {
    const result = await ingestEvents(caller.tenant.id, value);
    return json(result, result.items.some((i) => !i.duplicate) ? 201 : 200);
  }
  if (bytes > MAX_BODY_BYTES) throw tooLarge(MAX_BODY_BYTES);
  const { event, duplicate } = await ingestEvent(caller.tenant.id, value);
  const { inserted: _inserted, ...shown } = event;
  return json({ ...shown, duplicate }, duplicate ? 200 : 201);
});
