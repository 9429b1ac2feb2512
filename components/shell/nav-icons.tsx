import type { ReactNode } from "react";

/** Simple line icons for the sidebar, drawn on a 20×20 grid. Decorative: the link text names the page. */
function Icon({ children }: { children: ReactNode }) {
  return (
    <svg
      viewBox="0 0 20 20"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.6"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      className="size-5 shrink-0"
    >
      {children}
    </svg>
  );
}

export const NAV_ICONS = {
  dashboard: (
    <Icon>
      <path d="M3 17.5h14" />
      <path d="M5 14.5V10M9 14.5V5M13 14.5V8M17 14.5v-3" />
    </Icon>
  ),
  automations: (
    <Icon>
      <rect x="2.5" y="3" width="5" height="4" rx="1" />
      <rect x="12.5" y="8" width="5" height="4" rx="1" />
      <rect x="2.5" y="13" width="5" height="4" rx="1" />
      <path d="M7.5 5h2.5v10H7.5M10 10h2.5" />
    </Icon>
  ),
  approvals: (
    <Icon>
      <circle cx="8" cy="6.5" r="3" />
      <path d="M2.5 16.5c.7-2.9 2.8-4.5 5.5-4.5 1.2 0 2.3.3 3.2.9" />
      <path d="M12.5 14.5l2 2 3.5-4" />
    </Icon>
  ),
  runs: (
    <Icon>
      <circle cx="10" cy="10" r="7.5" />
      <path d="M8.5 7l4 3-4 3z" />
    </Icon>
  ),
  waiting: (
    <Icon>
      <path d="M6 2.5h8M6 17.5h8" />
      <path d="M7 2.5c0 4 6 4.5 6 7.5s-6 3.5-6 7.5M13 2.5c0 4-6 4.5-6 7.5s6 3.5 6 7.5" />
    </Icon>
  ),
  outbox: (
    <Icon>
      <rect x="2.5" y="4.5" width="15" height="11" rx="1.5" />
      <path d="M3 5.5l7 5.5 7-5.5" />
    </Icon>
  ),
  tasks: (
    <Icon>
      <rect x="3" y="3" width="14" height="14" rx="2" />
      <path d="M6.5 10l2.5 2.5 4.5-5" />
    </Icon>
  ),
  orders: (
    <Icon>
      <path d="M5 2.5h10v15l-2.5-1.5-2.5 1.5-2.5-1.5L5 17.5z" />
      <path d="M8 7h4M8 10.5h4" />
    </Icon>
  ),
  customers: (
    <Icon>
      <circle cx="10" cy="7" r="3.5" />
      <path d="M3.5 17.5c.8-3.2 3.3-5 6.5-5s5.7 1.8 6.5 5" />
    </Icon>
  ),
  settings: (
    <Icon>
      <path d="M3 5.5h8M15 5.5h2M3 14.5h2M9 14.5h8" />
      <circle cx="13" cy="5.5" r="2" />
      <circle cx="7" cy="14.5" r="2" />
    </Icon>
  ),
} as const;
