import { z } from "zod";
import { DOMAINS } from "@/lib/domains/domains";
import { changesInput, putSchema } from "@/lib/entities/service";
import { eventInput, MAX_BATCH } from "@/lib/events/input";
import { docs, entityShape, eventBatchResultShape, eventResultShape } from "@/lib/api/shapes";
import type { Endpoint } from "./endpoint";

/** Entities and events. */
export const entitiesEndpoints: readonly Endpoint[] = [
  {
    method: "GET",
    path: "/api/v1/entities/{domain}/{id}",
    summary: "Get a record",
    description: "The domain's fields, plus `id`, `domain`, `tags` and `notes`.",
    tag: "Entities and events",
    role: "viewer",
    params: { domain: z.enum(DOMAINS) },
    ok: { status: 200, description: "The record.", schema: entityShape },
  },
  {
    method: "PUT",
    path: "/api/v1/entities/{domain}/{id}",
    summary: "Create or replace a record",
    description:
      "The body is the domain's fields (one schema per domain below), plus `tags` to set and `notes` to add. Anything else the source sent goes under `attributes`, any JSON object of at most 64 KB, which conditions and tokens read by path (`attributes.note_attributes.0.value`); larger is a 422 that changes nothing. A new record emits `<domain>.created`; a status change emits `<domain>.status_changed` and the event its status names (`order.paid`, …).",
    tag: "Entities and events",
    role: "editor",
    params: { domain: z.enum(DOMAINS) },
    // Each domain's schema is a named component (`OrderInput`, …), so the viewer shows them by name.
    body: z.union(
      DOMAINS.map((domain) =>
        putSchema(domain).register(docs, { id: `${domain[0]!.toUpperCase()}${domain.slice(1)}` }),
      ),
    ),
    example: { number: "#9001", status: "pending", total: 25, currency: "EUR", tags: ["vip"] },
    ok: { status: 200, description: "The record (201 when it is new).", schema: entityShape },
  },
  {
    method: "PATCH",
    path: "/api/v1/entities/{domain}/{id}",
    summary: "Change some fields of a record",
    description:
      "Merges the fields sent into the stored record, then checks it as a PUT would; a status change emits the same events.",
    tag: "Entities and events",
    role: "editor",
    params: { domain: z.enum(DOMAINS) },
    body: changesInput,
    example: { status: "paid" },
    ok: { status: 200, description: "The record.", schema: entityShape },
  },
  {
    method: "DELETE",
    path: "/api/v1/entities/{domain}/{id}",
    summary: "Delete a record",
    tag: "Entities and events",
    role: "editor",
    params: { domain: z.enum(DOMAINS) },
    ok: { status: 204, description: "Deleted." },
  },
  {
    method: "POST",
    path: "/api/v1/events",
    summary: "Record an event, or an array of them",
    description: `One event (201; 200 with \`duplicate: true\` when its \`id\` was recorded before), or an array of 1 to ${MAX_BATCH.toLocaleString("en")} recorded all or nothing: one bad event refuses the whole array with a 422 whose \`issues\` name each problem by index (\`3.type\`). Arrays may be up to 5 MB, one event up to 1 MB.`,
    tag: "Entities and events",
    role: "editor",
    body: z.union([eventInput, z.array(eventInput).min(1).max(MAX_BATCH)]),
    example: { id: "ext-1", type: "order.fulfilled", domain: "order", entityId: "ord_9001" },
    ok: {
      status: 201,
      description: "The event (or, for an array, one `{ id, duplicate }` per event, in order).",
      schema: z.union([eventResultShape, eventBatchResultShape]),
    },
  },
];
