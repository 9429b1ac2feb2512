import { json } from "@/lib/api/route";
import { buildOpenApi } from "@/lib/api/openapi";

/** Built once per process: the contract is code, so the document cannot change while it runs. */
let document: ReturnType<typeof buildOpenApi> | undefined;

/**
 * GET /api/v1/openapi.json — the OpenAPI 3.1 document of this API. Public (no key), as API
 * descriptions conventionally are: it describes the routes, and holds no shop's data.
 */
export async function GET(): Promise<Response> {
  document ??= buildOpenApi();
  return json(document);
}
