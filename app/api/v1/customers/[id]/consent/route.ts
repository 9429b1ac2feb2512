import { apiRoute } from "@/lib/api/route";
import { getDb } from "@/lib/db/client";
import { customerConsentView } from "@/lib/consent/store";
import { notFound } from "@/lib/errors";

export const GET = apiRoute<{ id: string }>({ role: "viewer" }, async ({ params, caller }) => {
  const view = await customerConsentView(getDb(), caller.tenant.id, params.id);
  if (!view) throw notFound(`The customer '${params.id}'`);
  return view;
});
