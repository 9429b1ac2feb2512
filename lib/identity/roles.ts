/** Roles of SPEC §4, weakest last. Browser-safe. */
export const ROLES = ["admin", "editor", "viewer"] as const;
export type Role = (typeof ROLES)[number];

const RANK: Record<Role, number> = { viewer: 0, editor: 1, admin: 2 };

/** True when `role` may do what `needed` may do (admin ⊇ editor ⊇ viewer). */
export function hasRole(role: Role, needed: Role): boolean {
  return RANK[role] >= RANK[needed];
}

export const ROLE_DESCRIPTIONS: Record<Role, string> = {
  admin: "Everything, including users, API keys, and pausing or publishing automations.",
  editor: "Builds, tests and publishes automations; edits the shop's records.",
  viewer: "Reads automations, run history and the shop's records; changes nothing.",
};
