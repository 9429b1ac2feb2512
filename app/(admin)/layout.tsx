import type { ReactNode } from "react";
import { SignedInVoterProvider } from "@/components/approvals/approval-votes";
import { Sidebar } from "@/components/shell/sidebar";
import { ShopTimeZoneProvider } from "@/components/ui/shop-time";
import { requireCaller } from "@/lib/auth/session";
import { actorLabel } from "@/lib/identity/caller";
import { BrakeBanner } from "@/components/shell/brake-banner";
import { brakeState } from "@/lib/automations/brake/brake";
import { hasRole } from "@/lib/identity/roles";

/**
 * The signed-in shell. Every page below also calls requireCaller() itself: layouts and pages
 * render independently, so a page must never rely on its layout for protection.
 */
export default async function AdminLayout({ children }: { children: ReactNode }) {
  const caller = await requireCaller();
  // The emergency brake, on every page while it is on (lib/automations/brake).
  const brake = await brakeState(caller.tenant.id);
  return (
    <div className="flex min-h-screen flex-col lg:flex-row">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded-lg focus:bg-white focus:px-3 focus:py-2 focus:text-sm focus:shadow"
      >
        Skip to content
      </a>
      <Sidebar caller={caller} />
      <div className="flex min-w-0 flex-1 flex-col">
        <BrakeBanner
          brake={brake}
          canRelease={hasRole(caller.role, "admin")}
          timeZone={caller.tenant.timezone}
        />
        <main id="main" className="min-w-0 flex-1 px-4 py-6 sm:px-8 md:py-8">
          {/* A page marked `data-wide` (the flow editor) uses the whole width. */}
          {/* React Query's provider sits in the layouts of the pages that poll (runs, waiting,
            approvals), so the others, the flow editor above all, never load it. Every page shows
            times in the shop's time zone. */}
          <div className="mx-auto max-w-6xl has-data-wide:max-w-none">
            <ShopTimeZoneProvider timeZone={caller.tenant.timezone}>
              <SignedInVoterProvider label={actorLabel(caller.actor)}>{children}</SignedInVoterProvider>
            </ShopTimeZoneProvider>
          </div>
        </main>
      </div>
    </div>
  );
}
