import { apiRoute, readJson } from "@/lib/api/route";
import { setShopMessaging, shopMessaging } from "@/lib/messaging/store";

/** The shop's quiet hours and cap on marketing messages per customer. */
export const GET = apiRoute({ role: "viewer" }, async ({ caller }) => shopMessaging(caller.tenant.id));

/** Sets them (admin; audited): a part left out keeps its value, `null` turns it off. */
export const PUT = apiRoute({ role: "admin" }, async ({ req, caller }) =>
  setShopMessaging(caller, await readJson(req)),
);
