import type { ReactNode } from "react";
import { NavLink } from "@/components/ui/nav-link";
import { PageHeader } from "@/components/ui/page-header";
import { requireCaller } from "@/lib/auth/session";

const TABS = [
  { href: "/settings/shop", label: "Shop" },
  { href: "/settings/automations", label: "Automations" },
  { href: "/settings/api-keys", label: "API keys" },
  { href: "/settings/credentials", label: "Credentials" },
  { href: "/settings/connections", label: "Connections" },
  { href: "/settings/alerts", label: "Alerts" },
  { href: "/settings/api", label: "API reference" },
  { href: "/settings/users", label: "Users" },
  { href: "/settings/teams", label: "Teams" },
  { href: "/settings/activity", label: "Activity" },
] as const;

export default async function SettingsLayout({ children }: { children: ReactNode }) {
  const caller = await requireCaller();
  return (
    <>
      <PageHeader
        title="Settings"
        description={`${caller.tenant.name}: its time zone, the people and the programs that can get in.`}
      />
      <nav aria-label="Settings" className="mb-6 border-b border-zinc-200">
        <ul className="-mb-px flex flex-wrap gap-x-6 gap-y-2">
          {TABS.map((tab) => (
            <li key={tab.href}>
              <NavLink
                href={tab.href}
                className="inline-block border-b-2 px-1 pb-3 text-sm font-medium transition-colors"
                activeClassName="border-zinc-900 text-zinc-900"
                inactiveClassName="border-transparent text-zinc-600 hover:border-zinc-300 hover:text-zinc-900"
              >
                {tab.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      {children}
    </>
  );
}
