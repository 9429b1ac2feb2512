import { STORE_WRITE_KINDS } from "@/lib/credentials/kinds";
import { STORE_ACTION_TYPES } from "@/lib/automations/nodes/store/store";
import { idParam, type CredentialSlot } from "../credential-options";
import type { StepForm } from "../step-form";

/** A store action's store: its connection's write credential, which also says the platform. */
const STORE_SLOT: CredentialSlot = {
  label: "Store",
  hint: "The connected store to write to; connect one with its Admin API token (Shopify) or REST key (WooCommerce) in Settings → Connections.",
  kinds: STORE_WRITE_KINDS,
  required: true,
  manage: {
    href: "/settings/connections",
    label: "Manage connections",
    empty:
      "No store can be written to yet: connect one with its Admin API token (Shopify) or REST key (WooCommerce) in Settings → Connections.",
  },
  params: ["credentialId", "platform"],
  read: (params) => idParam(params, "credentialId"),
  write: (params, id, chosen) => ({
    ...params,
    credentialId: id,
    ...(chosen ? { platform: chosen.kind === "woocommerce_rest" ? "woocommerce" : "shopify" } : {}),
  }),
};

/** The store actions: the generic form and the store to write to. */
export const STORE_FORMS: readonly StepForm[] = STORE_ACTION_TYPES.map((type) => ({
  type,
  credential: STORE_SLOT,
}));
