import { expect, test } from "vitest";
import { customerZone } from "./zone";

test("the customer's own zone first, then their address, then the shop's", () => {
  expect(customerZone({ timezone: "Asia/Tokyo", country: "US" }, "UTC")).toEqual({
    zone: "Asia/Tokyo",
    source: "customer",
  });
  expect(customerZone({ country: "US", province: "CA" }, "UTC").zone).toBe("America/Los_Angeles");
  expect(customerZone({ country: "United States", province: "Texas" }, "UTC").zone).toBe("America/Chicago");
  expect(customerZone({ shippingAddress: { countryCode: "AU", province: "WA" } }, "UTC").zone).toBe(
    "Australia/Perth",
  );
  expect(customerZone({ country: "DE" }, "UTC")).toEqual({ zone: "Europe/Berlin", source: "address" });
  expect(customerZone({ timezone: "Not/AZone", country: "Narnia" }, "Europe/Paris")).toEqual({
    zone: "Europe/Paris",
    source: "shop",
  });
  expect(customerZone(null, "UTC").source).toBe("shop");
});

test("a country spanning zones without a known province takes its most populous region's", () => {
  expect(customerZone({ country: "US" }, "UTC").zone).toBe("America/New_York");
  expect(customerZone({ country: "CA", province: "Nowhere" }, "UTC").zone).toBe("America/Toronto");
  expect(customerZone({ country: "BR" }, "UTC").zone).toBe("America/Sao_Paulo");
  expect(customerZone({ country: "RU" }, "UTC").zone).toBe("Europe/Moscow");
  expect(customerZone({ country: "ID" }, "UTC").zone).toBe("Asia/Jakarta");
  expect(customerZone({ country: "MX" }, "UTC").zone).toBe("America/Mexico_City");
  expect(customerZone({ country: "AU" }, "UTC").zone).toBe("Australia/Sydney");
});
