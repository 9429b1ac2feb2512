import { z } from "zod";
import { credentialId, integer, paramsObject, startsWithToken, text } from "../params";
import { httpTokenEscapes } from "./http-request.escape";
import { retryParams } from "../retry";
import type { NodeDefinition } from "../types";
import { PURPOSE_HINTS, purposeParam } from "@/lib/consent/purpose";
import { credentialHostIssues, describeRequest } from "./http-request.sentences";
import { HTTP_AUTH_KINDS } from "@/lib/credentials/kinds";
import { HTTP_REQUEST_TYPE } from "./http-request.type";

export const HTTP_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

/**
 * Headers the engine or the HTTP client sets itself; letting a flow set them would break delivery,
 * or (the Standard Webhooks `webhook-*` headers) let a flow forge the shop's signature.
 */
const RESERVED_HEADERS = new Set([
  "host",
  "content-length",
  "idempotency-key",
  "webhook-id",
  "webhook-timestamp",
  "webhook-signature",
]);

const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/;

const headers = z
  .record(z.string(), text().max(2000, "is longer than 2000 characters"))
  .superRefine((value, ctx) => {
    const names = Object.keys(value);
    if (names.length > 50) ctx.addIssue({ code: "custom", message: "can have at most 50 headers" });
    for (const name of names) {
      // Issues on the name itself, so the message reads "headers.X Y: is not a valid header name".
      if (!HEADER_NAME.test(name))
        ctx.addIssue({ code: "custom", path: [name], message: "is not a valid header name" });
      else if (RESERVED_HEADERS.has(name.toLowerCase())) {
        ctx.addIssue({ code: "custom", path: [name], message: "is set by Tillflow itself" });
      }
    }
  });

const httpRequestParams = paramsObject({
  // The URL is only fully known after templating; the executor checks it again then. Statically
  // we insist it starts with the scheme, or with a token that may supply it.
  url: text()
    .trim()
    .min(1, "is required")
    .max(2000, "is longer than 2000 characters")
    .refine(
      (url) => /^https?:\/\/\S/i.test(url) || startsWithToken(url),
      "must start with https:// or http://",
    ),
  method: z.enum(HTTP_METHODS, { error: `must be one of ${HTTP_METHODS.join(", ")}` }).default("POST"),
  headers: headers.default({}),
  body: text().max(100_000, "is longer than 100,000 characters").optional(),
  timeoutMs: integer(1000, 30_000).default(10_000),
  /** A credential (Settings → Credentials) whose headers the request carries; its value never sits in the graph. */
  auth: z.strictObject({ credentialId }).optional(),
  /** When an attempt fails for a reason that may pass (408, 429, 5xx, no answer). Default: 3 attempts. */
  retry: retryParams.optional(),
  /**
   * The request reaches the run's customer (an SMS or a push through another system): then it
   * has a `purpose`, and a marketing one is skipped for a customer without consent (lib/consent).
   */
  reachesCustomer: z.boolean({ error: "must be true or false" }).optional(),
  purpose: purposeParam,
});

export const httpRequest = {
  type: HTTP_REQUEST_TYPE,
  category: "action",
  label: "Send HTTP request",
  description:
    "Calls another system's URL, with a credential's headers if it needs them. Each request carries an Idempotency-Key header (a receiver can drop a repeat) and is signed with the shop's signing secret (Settings → Shop). Values are escaped where they land: JSON-encoded in a JSON body, percent-encoded in the URL; | json, | url and | raw choose for themselves.",
  params: httpRequestParams,
  defaultParams: () => ({ url: "", method: "POST" as const, headers: {}, timeoutMs: 10_000 }),
  handles: { in: true, out: ["out"] },
  templated: ["url", "body", "headers"],
  tokenEscapes: httpTokenEscapes,
  // Conditions after it may read its answer (`steps.h.body.points`): what follows is planned once it has run.
  planAfterRun: true,
  customerFacing: (params) => params.reachesCustomer === true,
  summarise: ({ method, url }) => (url ? `${method} ${url}` : `Send ${method} request`),
  // SPEC §2 "What a step hands on": a JSON answer of at most 256 KB parsed, anything else an excerpt.
  outputs: () => [
    { path: "status", label: "the answer's status code" },
    { path: "headers.*", label: "a header of the answer" },
    { path: "body.*", label: "a field of the JSON answer" },
    { path: "bodyExcerpt", label: "the start of a non-JSON answer" },
    { path: "durationMs", label: "how long it took (ms)" },
    { path: "idempotencyKey", label: "the request's Idempotency-Key" },
  ],
  paramLabels: { reachesCustomer: "Reaches the customer" },
  paramHelp: {
    url: "Insert token adds a value of the record; values are percent-encoded (| raw inside the braces puts one in as it is). A token at the start supplies the address as it is.",
    body: "Insert token adds a value of the record. In a JSON body each value is JSON-encoded: inside quotes it stays one string, elsewhere a number stays a number. | json, | url and | raw choose for themselves.",
    reachesCustomer:
      "On when the request reaches the run's customer (an SMS, a push): it then says whether it is transactional or marketing.",
    purpose: `${PURPOSE_HINTS.transactional} ${PURPOSE_HINTS.marketing} Only asked when the request reaches the customer.`,
  },
  review: credentialHostIssues,
  describeDryRun: describeRequest,
  credentials: ({ auth }) =>
    typeof auth === "object" &&
    auth !== null &&
    "credentialId" in auth &&
    typeof auth.credentialId === "string"
      ? [{ credentialId: auth.credentialId, kinds: HTTP_AUTH_KINDS }]
      : [],
} satisfies NodeDefinition<typeof httpRequestParams>;
