import { Suspense } from "react";
import { Button } from "@/components/ui/button";
import { NavLink } from "@/components/ui/nav-link";
import { signOut } from "@/lib/actions/auth/sign-out";
import type { Caller } from "@/lib/identity/caller";
import { Logo } from "./logo";
import { NAV_ICONS } from "./nav-icons";
import { PendingApprovalsBadge } from "./pending-approvals-badge";
import { RoleBadge } from "./role-badge";
import { ShellMenu } from "./shell-menu";

const NAV = [
  { href: "/dashboard", label: "Dashboard", icon: NAV_ICONS.dashboard },
  { href: "/automations", label: "Automations", icon: NAV_ICONS.automations },
  { href: "/approvals", label: "Approvals", icon: NAV_ICONS.approvals },
  { href: "/runs", label: "Runs", icon: NAV_ICONS.runs },
  { href: "/waiting", label: "Waiting list", icon: NAV_ICONS.waiting },
  { href: "/outbox", label: "Outbox", icon: NAV_ICONS.outbox },
  { href: "/tasks", label: "Tasks", icon: NAV_ICONS.tasks },
  { href: "/orders", label: "Orders", icon: NAV_ICONS.orders },
  { href: "/customers", label: "Customers", icon: NAV_ICONS.customers },
  { href: "/settings", label: "Settings", icon: NAV_ICONS.settings },
] as const;

function who(caller: Caller): { primary: string; secondary: string | null } {
  if (caller.actor.kind === "user") {
    const { name, email } = caller.actor;
    return { primary: email, secondary: name && name !== email ? name : null };
  }
  return { primary: `API key ${caller.actor.prefix}…`, secondary: null };
}

/**
 * The admin's navigation: shop, pages, and who is signed in with which role. A sidebar from `lg`
 * up; below, a top bar whose Menu button opens the same content (`ShellMenu`).
 */
export function Sidebar({ caller }: { caller: Caller }) {
  const person = who(caller);
  return (
    <aside className="shrink-0 border-b border-zinc-200 bg-white lg:w-60 lg:border-r lg:border-b-0">
      <div className="flex flex-col lg:sticky lg:top-0 lg:h-screen">
        <ShellMenu
          bar={
            <div className="flex min-w-0 items-center gap-3 lg:flex-col lg:items-stretch">
              <div className="shrink-0 lg:px-1">
                <Logo />
              </div>
              <div className="min-w-0 lg:rounded-lg lg:bg-zinc-50 lg:px-3 lg:py-2 lg:ring-1 lg:ring-zinc-200">
                <p className="hidden text-xs text-zinc-500 lg:block">Shop</p>
                <p className="truncate text-sm font-medium text-zinc-900" data-testid="shop-name">
                  {caller.tenant.name}
                </p>
              </div>
            </div>
          }
        >
          <nav
            aria-label="Main"
            className="border-t border-zinc-200 px-2 py-2 lg:flex-1 lg:overflow-y-auto lg:border-t-0"
          >
            <ul className="grid grid-cols-1 gap-1 sm:grid-cols-2 lg:grid-cols-1">
              {NAV.map((item) => (
                <li key={item.href}>
                  <NavLink
                    href={item.href}
                    className="flex items-center gap-3 rounded-lg px-3 py-2 text-sm font-medium whitespace-nowrap transition-colors"
                    activeClassName="bg-zinc-900 text-white"
                    inactiveClassName="text-zinc-700 hover:bg-zinc-100 hover:text-zinc-900"
                  >
                    {item.icon}
                    {item.label}
                    {item.href === "/approvals" && (
                      <Suspense fallback={null}>
                        <PendingApprovalsBadge tenantId={caller.tenant.id} />
                      </Suspense>
                    )}
                  </NavLink>
                </li>
              ))}
            </ul>
          </nav>
          <div className="flex items-center gap-3 border-t border-zinc-200 px-4 py-3 lg:block lg:py-4">
            <div className="flex min-w-0 flex-1 items-center justify-between gap-2">
              <div className="min-w-0">
                <p className="sr-only">Signed in as</p>
                <p className="truncate text-sm font-medium text-zinc-900" data-testid="signed-in-email">
                  {person.primary}
                </p>
                {person.secondary && (
                  <p className="hidden truncate text-xs text-zinc-500 lg:block">{person.secondary}</p>
                )}
              </div>
              <span data-testid="signed-in-role">
                <RoleBadge role={caller.role} />
              </span>
            </div>
            <form action={signOut} className="shrink-0 lg:mt-3">
              <Button type="submit" size="sm" variant="secondary" className="lg:w-full">
                Sign out
              </Button>
            </form>
          </div>
        </ShellMenu>
      </div>
    </aside>
  );
}
