import type { ReactNode } from "react";
import { Providers } from "@/components/providers";

/** React Query's client for this page's live data (see app/(admin)/runs/layout.tsx for why here). */
export default function AutomationHeldLayout({ children }: { children: ReactNode }) {
  return <Providers>{children}</Providers>;
}
