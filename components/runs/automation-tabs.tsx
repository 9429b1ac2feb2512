import { AutomationStatusBadge } from "@/components/automations/automation-status";
import { ButtonLink } from "@/components/ui/button-link";
import { NavLink } from "@/components/ui/nav-link";
import { PageHeader } from "@/components/ui/page-header";

/**
 * The small header of an automation's Runs, Waiting, Held and Insights pages: its name and status, a link back to
 * the editor, and the tabs.
 */
export function AutomationOpsHeader({
  automation,
  actions,
}: {
  automation: { id: string; name: string; status: string; version: number };
  actions?: React.ReactNode;
}) {
  const base = `/automations/${automation.id}`;
  return (
    <>
      <PageHeader
        back={{ href: "/automations", label: "Automations" }}
        title={automation.name}
        meta={
          <>
            <AutomationStatusBadge status={automation.status} />
            {automation.version > 0 && <span className="text-sm text-zinc-500">v{automation.version}</span>}
          </>
        }
        actions={
          <>
            {actions}
            {/* No prefetch: the editor page is built in another branch, and a prefetch must never 404. */}
            <ButtonLink href={base} prefetch={false}>
              Open editor
            </ButtonLink>
          </>
        }
      />
      {/* On a phone the tabs scroll sideways inside their bar, never the page. */}
      <nav aria-label="Automation" className="mb-4 flex gap-1 overflow-x-auto border-b border-zinc-200">
        {[
          { href: `${base}/runs`, label: "Runs" },
          { href: `${base}/waiting`, label: "Waiting" },
          { href: `${base}/held`, label: "Held" },
          { href: `${base}/insights`, label: "Insights" },
          { href: `${base}/performance`, label: "Performance" },
        ].map((tab) => (
          <NavLink
            key={tab.href}
            href={tab.href}
            exact
            className="-mb-px shrink-0 border-b-2 px-3 py-2 text-sm font-medium whitespace-nowrap"
            activeClassName="border-zinc-900 text-zinc-900"
            inactiveClassName="border-transparent text-zinc-600 hover:text-zinc-900"
          >
            {tab.label}
          </NavLink>
        ))}
      </nav>
    </>
  );
}
