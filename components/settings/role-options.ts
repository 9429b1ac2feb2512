import { ROLE_DESCRIPTIONS, ROLES, type Role } from "@/lib/identity/roles";

const LABELS: Record<Role, string> = { admin: "Admin", editor: "Editor", viewer: "Viewer" };

/** The roles for a select, weakest first so the safe choice is at the top of the list. */
export const ROLE_OPTIONS = [...ROLES].reverse().map((role) => ({
  value: role,
  label: LABELS[role],
  description: ROLE_DESCRIPTIONS[role],
}));

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}
