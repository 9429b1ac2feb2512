import { apiRoute, json, readJson } from "@/lib/api/route";
import { actorLabel } from "@/lib/identity/caller";
import { deleteEntity, getEntity, patchEntity, upsertEntity } from "@/lib/entities/service";

type Params = { domain: string; id: string };

export const GET = apiRoute<Params>({ role: "viewer" }, async ({ params, caller }) =>
  getEntity(caller.tenant.id, params.domain, params.id),
);

export const PUT = apiRoute<Params>({ role: "editor" }, async ({ req, params, caller }) => {
  const result = await upsertEntity(
    caller.tenant.id,
    params.domain,
    params.id,
    await readJson(req),
    actorLabel(caller.actor),
  );
  return json(result.entity, result.created ? 201 : 200);
});

/** Merges the given fields into the stored record; a status change emits the same events as a PUT. */
export const PATCH = apiRoute<Params>({ role: "editor" }, async ({ req, params, caller }) => {
  const result = await patchEntity(
    caller.tenant.id,
    params.domain,
    params.id,
    await readJson(req),
    actorLabel(caller.actor),
  );
  return result.entity;
});

export const DELETE = apiRoute<Params>({ role: "editor" }, async ({ params, caller }) => {
  await deleteEntity(caller.tenant.id, params.domain, params.id, actorLabel(caller.actor));
  return new Response(null, { status: 204 });
});
