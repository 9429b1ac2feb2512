import { apiRoute, readJson } from "@/lib/api/route";
import { resubscribe } from "@/lib/consent/store";

export const POST = apiRoute<{ id: string }>({ role: "editor" }, async ({ req, params, caller }) =>
  resubscribe(caller, params.id, await readJson(req)),
);
