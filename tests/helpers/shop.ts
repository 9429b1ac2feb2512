import crypto from "node:crypto";
import { createApiKey } from "@/lib/auth/api-keys";
import { resolveCaller } from "@/lib/auth/resolve-caller";
import { createTenant, type Tenant } from "@/lib/auth/tenants";
import type { Caller } from "@/lib/identity/caller";
import type { Role } from "@/lib/identity/roles";

export interface TestShop {
  tenant: Tenant;
  keys: Record<Role, string>;
}

/** A fresh shop with one API key per role. */
export async function createShop(slug = `shop-${crypto.randomBytes(3).toString("hex")}`): Promise<TestShop> {
  const tenant = await createTenant({ slug, name: `Shop ${slug}` });
  const keys = {} as Record<Role, string>;
  for (const role of ["admin", "editor", "viewer"] as const) {
    keys[role] = (await createApiKey(tenant.id, { name: `${role} key`, role })).key;
  }
  return { tenant, keys };
}

/** The caller the API sees for the shop's key of `role`, for calling services and actions directly. */
export async function callerOf(shop: TestShop, role: Role): Promise<Caller> {
  const caller = await resolveCaller(new Headers({ authorization: `Bearer ${shop.keys[role]}` }));
  if (!caller) throw new Error(`The shop's ${role} key resolves to no caller.`);
  return caller;
}
