import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, test } from "vitest";
import { resolveCaller } from "@/lib/auth/resolve-caller";
import type { Caller } from "@/lib/identity/caller";
import { updateShopSettings } from "@/lib/auth/tenants";
import { getDb } from "@/lib/db/client";
import { auditEvents, tenants } from "@/lib/db/schema";
import { AppError } from "@/lib/errors";
import { callerOf, createShop, type TestShop } from "@/tests/helpers/shop";

let shop: TestShop;
let admin: Caller;
beforeAll(async () => {
  shop = await createShop();
  admin = await callerOf(shop, "admin");
});

async function stored() {
  const [row] = await getDb()
    .select({ name: tenants.name, timezone: tenants.timezone })
    .from(tenants)
    .where(eq(tenants.id, shop.tenant.id));
  return row!;
}

describe("shop settings", () => {
  test("an admin moves the shop to another time zone; the change is in the audit log with before and after", async () => {
    const before = await stored();
    const saved = await updateShopSettings(admin, { name: "Maison Demo", timezone: "Europe/Paris" });
    expect(saved).toEqual({ name: "Maison Demo", timezone: "Europe/Paris" });
    expect(await stored()).toEqual(saved);
    const [audit] = await getDb().select().from(auditEvents).where(eq(auditEvents.subjectId, shop.tenant.id));
    expect(audit).toMatchObject({
      action: "shop.updated",
      subjectType: "shop",
      detail: { before, after: saved },
    });
  });

  test("an API key's next request sees the new zone at once in this process (its remembered shop is forgotten)", async () => {
    const headers = () => new Headers({ authorization: `Bearer ${shop.keys.editor}` });
    // Resolved once, so the key is remembered with the zone of the moment.
    const first = (await resolveCaller(headers()))!;
    const next = first.tenant.timezone === "Asia/Tokyo" ? "America/Chicago" : "Asia/Tokyo";
    await updateShopSettings(admin, { name: first.tenant.name, timezone: next });
    expect((await resolveCaller(headers()))!.tenant).toMatchObject({ timezone: next });
  });

  test("a zone that does not exist is refused in plain English and nothing changes", async () => {
    const before = await stored();
    const refused = await updateShopSettings(admin, { name: "Renamed", timezone: "Mars/Olympus" }).catch(
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).status).toBe(422);
    expect((refused as AppError).message).toContain("choose a time zone from the list");
    expect(await stored()).toEqual(before);
  });
});
