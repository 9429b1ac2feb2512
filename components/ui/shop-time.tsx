"use client";

import { createContext, useContext, type ReactNode } from "react";

/**
 * The shop's time zone (a shop setting, Settings → Shop), for every time the admin shows: "Dec 2,
 * 2:00 PM" means 2 PM where the shop is, on the server's render and in any browser alike, with
 * UTC beside it on hover. Outside a provider (unit tests, sign-in) it is UTC.
 */
const ShopTimeZone = createContext("UTC");

export function ShopTimeZoneProvider({ timeZone, children }: { timeZone: string; children: ReactNode }) {
  return <ShopTimeZone.Provider value={timeZone}>{children}</ShopTimeZone.Provider>;
}

export function useShopTimeZone(): string {
  return useContext(ShopTimeZone);
}
