import { apiRoute } from "@/lib/api/route";
import { deleteConnection, getConnection } from "@/lib/connections/store";

export const GET = apiRoute<{ id: string }>({ role: "viewer" }, async ({ params, caller }) =>
  getConnection(caller.tenant.id, params.id),
);

export const DELETE = apiRoute<{ id: string }>({ role: "editor" }, async ({ params, caller }) =>
  deleteConnection(caller, params.id),
);
