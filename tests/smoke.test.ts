import { expect, test } from "vitest";
import { GET } from "@/app/api/v1/entities/[domain]/[id]/route";
import { PUT } from "@/app/api/v1/entities/[domain]/[id]/route";
import { call, createShop } from "./fixtures";

test("smoke", async () => {
  const shop = await createShop();
  const put = await call(PUT, {
    method: "PUT",
    key: shop.keys.editor,
    params: { domain: "order", id: "o1" },
    body: { number: "1001", status: "pending", total: 10, currency: "EUR" },
  });
  expect(put.status).toBe(201);
  const got = await call(GET, { key: shop.keys.viewer, params: { domain: "order", id: "o1" } });
  expect(got.body).toMatchObject({ id: "o1", number: "1001" });
});
