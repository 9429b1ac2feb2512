import { z } from "zod";
import { auditQuery } from "@/lib/audit/log";
import type { Endpoint } from "./endpoint";
import { list } from "./shared";

/** Meta. */
export const metaEndpoints: readonly Endpoint[] = [
  {
    method: "GET",
    path: "/api/v1/audit",
    summary: "Read the audit log",
    description: "Who published, paused, reverted, decided, … and when, newest first (admins only).",
    tag: "Meta",
    role: "admin",
    query: auditQuery,
    ok: list("A page of audit entries."),
  },
  {
    method: "GET",
    path: "/api/v1/node-types",
    summary: "List the step types (the registry)",
    description: "Each type with its label, category, handles and params as JSON Schema.",
    tag: "Meta",
    role: "viewer",
    ok: {
      status: 200,
      description: "Every step type.",
      schema: z.object({ items: z.array(z.looseObject({ type: z.string() })), nextCursor: z.null() }),
    },
  },
  {
    method: "GET",
    path: "/api/v1/openapi.json",
    summary: "This document",
    description: "OpenAPI 3.1, generated from the schemas the API parses with. Public: no key needed.",
    tag: "Meta",
    role: null,
    ok: { status: 200, description: "The OpenAPI document." },
  },
];
