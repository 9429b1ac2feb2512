import { Badge, type BadgeTone } from "@/components/ui/badge";
import type { Role } from "@/lib/identity/roles";

const TONES: Record<Role, BadgeTone> = { admin: "accent", editor: "info", viewer: "neutral" };
const LABELS: Record<Role, string> = { admin: "Admin", editor: "Editor", viewer: "Viewer" };

export function roleLabel(role: Role): string {
  return LABELS[role];
}

export function RoleBadge({ role }: { role: Role }) {
  return <Badge tone={TONES[role]}>{LABELS[role]}</Badge>;
}
