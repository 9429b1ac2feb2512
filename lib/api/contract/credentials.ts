import { z } from "zod";
import {
  createCredentialInput,
  deleteCredentialQuery,
  rotateCredentialInput,
  updateCredentialInput,
} from "@/lib/credentials/store";
import { credentialShape } from "@/lib/api/shapes";
import type { Endpoint } from "./endpoint";

/** Credentials. */
export const credentialsEndpoints: readonly Endpoint[] = [
  {
    method: "GET",
    path: "/api/v1/credentials",
    summary: "List the shop's credentials",
    description:
      "Names, kinds and the last 4 characters of each secret; a value is never sent back, to any role.",
    tag: "Credentials",
    role: "viewer",
    ok: {
      status: 200,
      description: "Every credential of the shop.",
      schema: z.object({ items: z.array(credentialShape), nextCursor: z.null() }),
    },
  },
  {
    method: "POST",
    path: "/api/v1/credentials",
    summary: "Store a secret as a credential",
    description:
      "Admins only. Encrypted at rest (AES-256-GCM). Graphs refer to it by id: `auth: {credentialId}` on an HTTP request, `secretCredentialId` on a webhook trigger. `allowedHosts` (at least one for `bearer`, `basic` and `http_header`) lists the hosts an HTTP step may send it to; a step, dry run or Run now that would send it elsewhere, or a redirect that leaves them, is refused with a sentence before anything is sent.",
    tag: "Credentials",
    role: "admin",
    body: createCredentialInput,
    example: {
      name: "Loyalty API",
      kind: "bearer",
      value: "sk_live_4eC39HqLyjWDarjtT1zdp7dc",
      allowedHosts: ["api.loyalty.example"],
    },
    ok: { status: 201, description: "The credential (without its value).", schema: credentialShape },
    errors: [409],
  },
  {
    method: "GET",
    path: "/api/v1/credentials/{id}",
    summary: "Read one credential (without its value)",
    tag: "Credentials",
    role: "viewer",
    ok: { status: 200, description: "The credential.", schema: credentialShape },
  },
  {
    method: "PUT",
    path: "/api/v1/credentials/{id}",
    summary: "Rotate a credential",
    description:
      "Admins only. Replaces the value (and optionally the name); every flow that uses it sends the new one from now on. Refused with 409, naming the rule, while an alert rule sends through it, unless the body says `confirm: true`.",
    tag: "Credentials",
    role: "admin",
    body: rotateCredentialInput,
    example: { value: "sk_live_51HqLyjWDarjtT1zdp7dcNEW" },
    ok: { status: 200, description: "The credential (without its value).", schema: credentialShape },
    errors: [409],
  },
  {
    method: "PATCH",
    path: "/api/v1/credentials/{id}",
    summary: "Set the hosts a credential may be sent to",
    description:
      "Admins only. Replaces `allowedHosts` (and optionally the name) of a credential an HTTP step sends (`bearer`, `basic`, `http_header`); at least one host. A Slack webhook's host is its URL's: rotate it instead.",
    tag: "Credentials",
    role: "admin",
    body: updateCredentialInput,
    example: { allowedHosts: ["api.loyalty.example", "*.loyalty.example"] },
    ok: { status: 200, description: "The credential (without its value).", schema: credentialShape },
    errors: [409],
  },
  {
    method: "DELETE",
    path: "/api/v1/credentials/{id}",
    summary: "Delete a credential",
    description:
      "Admins only. Refused with 409, naming them, while an active automation's published version uses it, or while an alert rule sends through it — the latter unless the query says `?confirm=true`.",
    tag: "Credentials",
    role: "admin",
    query: deleteCredentialQuery,
    ok: { status: 200, description: "`{ id, deleted: true }`." },
    errors: [409],
  },
];
