import { expect, test } from "vitest";
import { KeyCache } from "./key-cache";

test("an entry is trusted until its time is up, then forgotten", () => {
  let now = 1_000;
  const cache = new KeyCache<string>(5_000, () => now);
  cache.set("hash-a", "key-a", "shop a");
  expect(cache.get("hash-a")).toBe("shop a");
  now += 4_999;
  expect(cache.get("hash-a")).toBe("shop a");
  now += 1;
  expect(cache.get("hash-a")).toBeNull();
  expect(cache.get("hash-unknown")).toBeNull();
});

test("forgetting a key drops its entries at once and leaves the others", () => {
  const cache = new KeyCache<string>(5_000, () => 0);
  cache.set("hash-a", "key-a", "shop a");
  cache.set("hash-b", "key-b", "shop b");
  cache.forget("key-a");
  expect(cache.get("hash-a")).toBeNull();
  expect(cache.get("hash-b")).toBe("shop b");
});

test("forgetting by value drops one shop's entries (its settings changed) and leaves the others", () => {
  const cache = new KeyCache<{ shop: string }>(5_000, () => 0);
  cache.set("hash-a1", "key-a1", { shop: "a" });
  cache.set("hash-a2", "key-a2", { shop: "a" });
  cache.set("hash-b", "key-b", { shop: "b" });
  cache.forgetWhere((value) => value.shop === "a");
  expect(cache.get("hash-a1")).toBeNull();
  expect(cache.get("hash-a2")).toBeNull();
  expect(cache.get("hash-b")).toEqual({ shop: "b" });
});
