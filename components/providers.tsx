"use client";

import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import { ShopTimeZoneProvider } from "@/components/ui/shop-time";

/**
 * Client-side data for live pages (run history polls the API). One QueryClient per browser tab,
 * created in state so a re-render never replaces it and the server never shares one between users.
 * Also the shop's time zone, in which every time is shown.
 */
export function Providers({ children, timeZone }: { children: ReactNode; timeZone: string }) {
  const [client] = useState(
    () =>
      new QueryClient({
        defaultOptions: {
          queries: {
            // Server components render the first data; polling keeps it fresh from there.
            staleTime: 1_000,
            refetchOnWindowFocus: true,
            retry: 1,
          },
        },
      }),
  );
  return (
    <QueryClientProvider client={client}>
      <ShopTimeZoneProvider timeZone={timeZone}>{children}</ShopTimeZoneProvider>
    </QueryClientProvider>
  );
}
