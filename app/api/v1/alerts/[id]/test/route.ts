import { apiRoute, json } from "@/lib/api/route";
import { sendTestAlert } from "@/lib/alerts/test-alert";

export const POST = apiRoute<{ id: string }>({ role: "admin" }, async ({ params, caller }) =>
  json(await sendTestAlert(caller, params.id), 202),
);
