import { describe, expect, test } from "vitest";
import { createApiKey, findApiKey, listApiKeys, revokeApiKey } from "@/lib/auth/api-keys";
import { getAuth } from "@/lib/auth/auth";
import { resolveCaller } from "@/lib/auth/resolve-caller";
import { addMember, changeMemberRole, listMembers, removeMember } from "@/lib/auth/users";
import { createShop } from "@/tests/helpers/shop";

async function signIn(email: string, password: string) {
  return getAuth().api.signInEmail({ body: { email, password }, asResponse: true });
}

describe("staff members", () => {
  test("a member added by an admin signs in with their password and is resolved to their shop and role", async () => {
    const { tenant } = await createShop();
    await addMember(tenant.id, {
      email: "Sam@Shop.test",
      name: "Sam",
      role: "editor",
      password: "correct horse",
    });

    const bad = await signIn("sam@shop.test", "wrong password");
    expect(bad.status).toBe(401);

    const res = await signIn("sam@shop.test", "correct horse");
    expect(res.status).toBe(200);
    const cookie = res.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    const caller = await resolveCaller(new Headers({ cookie }));
    expect(caller).toMatchObject({
      tenant: { id: tenant.id },
      role: "editor",
      actor: { kind: "user", email: "sam@shop.test" },
    });
  });

  test("the same person can work for two shops, with a role in each; duplicates are refused", async () => {
    const a = await createShop();
    const b = await createShop();
    await addMember(a.tenant.id, { email: "kim@shops.test", role: "admin", password: "password-1" });
    await addMember(b.tenant.id, {
      email: "kim@shops.test",
      role: "viewer",
      password: "ignored-for-existing",
    });
    await expect(
      addMember(a.tenant.id, { email: "kim@shops.test", role: "viewer", password: "password-1" }),
    ).rejects.toThrow(/already a member/);
    expect((await listMembers(a.tenant.id)).map((m) => [m.email, m.role])).toEqual([
      ["kim@shops.test", "admin"],
    ]);
    expect((await listMembers(b.tenant.id)).map((m) => [m.email, m.role])).toEqual([
      ["kim@shops.test", "viewer"],
    ]);
  });

  test("invalid input names the field; another shop's member is not found", async () => {
    const { tenant } = await createShop();
    const other = await createShop();
    await expect(addMember(tenant.id, { email: "nope", role: "admin", password: "short" })).rejects.toThrow(
      /email: enter a valid email address; password: use at least 8 characters/,
    );
    const member = await addMember(tenant.id, {
      email: "lee@shop.test",
      role: "viewer",
      password: "password-1",
    });
    await expect(changeMemberRole(other.tenant.id, member.userId, "admin")).rejects.toThrow(/not found/);
    await expect(removeMember(other.tenant.id, member.userId)).rejects.toThrow(/not found/);
    await changeMemberRole(tenant.id, member.userId, "editor");
    expect((await listMembers(tenant.id))[0]!.role).toBe("editor");
  });
});

describe("API keys", () => {
  test("only a hash is stored; the prefix identifies the key; revoked keys stop working", async () => {
    const { tenant } = await createShop();
    const { key, apiKey } = await createApiKey(tenant.id, { name: "Zapier", role: "editor" });
    expect(key.startsWith(apiKey.prefix)).toBe(true);
    const listed = await listApiKeys(tenant.id);
    expect(listed.find((k) => k.id === apiKey.id)).toMatchObject({
      name: "Zapier",
      role: "editor",
      revokedAt: null,
    });
    expect(JSON.stringify(listed)).not.toContain(key);

    expect(await findApiKey(key)).toMatchObject({ tenantId: tenant.id, role: "editor" });
    await revokeApiKey(tenant.id, apiKey.id);
    expect(await findApiKey(key)).toBeNull();
  });

  test("another shop cannot see or revoke a key", async () => {
    const a = await createShop();
    const b = await createShop();
    const { apiKey } = await createApiKey(a.tenant.id, { name: "A", role: "admin" });
    expect((await listApiKeys(b.tenant.id)).map((k) => k.id)).not.toContain(apiKey.id);
    await expect(revokeApiKey(b.tenant.id, apiKey.id)).rejects.toThrow(/not found/);
  });
});
