import { apiRoute, readJson, searchParams } from "@/lib/api/route";
import {
  deleteCredential,
  deleteCredentialQuery,
  getCredential,
  rotateCredential,
  updateCredential,
} from "@/lib/credentials/store";
import { parseOrThrow } from "@/lib/errors";

export const GET = apiRoute<{ id: string }>({ role: "viewer" }, async ({ params, caller }) =>
  getCredential(caller.tenant.id, params.id),
);

// Rotating, changing the hosts and deleting are for admins: an editor who could would choose
// where an admin's secret goes, or silence the alerts that use it.
export const PUT = apiRoute<{ id: string }>({ role: "admin" }, async ({ req, params, caller }) =>
  rotateCredential(caller, params.id, await readJson(req)),
);

export const PATCH = apiRoute<{ id: string }>({ role: "admin" }, async ({ req, params, caller }) =>
  updateCredential(caller, params.id, await readJson(req)),
);

/** `?confirm=true`: delete it although an alert rule sends through it. */
export const DELETE = apiRoute<{ id: string }>({ role: "admin" }, async ({ req, params, caller }) => {
  const query = parseOrThrow(deleteCredentialQuery, searchParams(req), "The request is invalid");
  return deleteCredential(caller, params.id, { confirm: query.confirm === "true" });
});
