import { apiRoute, readJson } from "@/lib/api/route";
import { deleteCredential, getCredential, rotateCredential } from "@/lib/credentials/store";

export const GET = apiRoute<{ id: string }>({ role: "viewer" }, async ({ params, caller }) =>
  getCredential(caller.tenant.id, params.id),
);

export const PUT = apiRoute<{ id: string }>({ role: "editor" }, async ({ req, params, caller }) =>
  rotateCredential(caller, params.id, await readJson(req)),
);

export const DELETE = apiRoute<{ id: string }>({ role: "editor" }, async ({ params, caller }) =>
  deleteCredential(caller, params.id),
);
