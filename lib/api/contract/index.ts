import type { Endpoint } from "./endpoint";
import { automationsEndpoints } from "./automations";
import { runsEndpoints } from "./runs";
import { waitsEndpoints } from "./waits";
import { entitiesEndpoints } from "./entities";
import { workEndpoints } from "./work";
import { credentialsEndpoints } from "./credentials";
import { connectionsEndpoints } from "./connections";
import { alertsEndpoints } from "./alerts";
import { teamsEndpoints } from "./teams";
import { metaEndpoints } from "./meta";

/*
 * Terminology
 *
 *   endpoint   one method on one path of `/api/v1`, as the handler in app/api/v1/…/route.ts serves it
 *   role       the least role that may call it: the handler's `apiRoute({ role })`; null = public
 *   body       the zod schema the service parses the JSON body with (the same object, imported)
 *   query      the zod schema the service parses the query string with
 *   ok         the success status and the shape of its reply (lib/api/shapes.ts)
 *
 * lib/api/openapi.ts turns this list into the OpenAPI 3.1 document served at
 * `GET /api/v1/openapi.json`. tests/api/openapi.test.ts fails when a route has no entry here, when an
 * entry names no route, when a role disagrees with the handler's, and when a body the document
 * calls valid is refused (or one it calls invalid is accepted). A new route is one more object, in
 * its resource's file here.
 */
export type { Endpoint, ExtraError, Method, Tag } from "./endpoint";

/** The whole public REST contract, resource by resource, in the order the document lists them. */
export const CONTRACT: readonly Endpoint[] = [
  ...automationsEndpoints,
  ...runsEndpoints,
  ...waitsEndpoints,
  ...entitiesEndpoints,
  ...workEndpoints,
  ...credentialsEndpoints,
  ...connectionsEndpoints,
  ...alertsEndpoints,
  ...teamsEndpoints,
  ...metaEndpoints,
];
