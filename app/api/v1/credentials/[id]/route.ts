import { apiRoute, readJson } from "@/lib/api/route";
import { deleteCredential, getCredential, rotateCredential, updateCredential } from "@/lib/credentials/store";

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

export const DELETE = apiRoute<{ id: string }>({ role: "admin" }, async ({ req, params, caller }) =>
  deleteCredential(caller, params.id, { confirm: new URL(req.url).searchParams.get("confirm") === "true" }),
);
