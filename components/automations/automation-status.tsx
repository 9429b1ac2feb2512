import { Badge, type BadgeTone } from "@/components/ui/badge";

/** The statuses a merchant filters the list by; archived ones are hidden from the default list and shown only under "Archived". */
export const LISTED_STATUSES = ["draft", "active", "paused", "archived"] as const;
export type ListedStatus = (typeof LISTED_STATUSES)[number];

const LABELS: Record<string, string> = {
  draft: "Draft",
  active: "Active",
  paused: "Paused",
  archived: "Archived",
};

const TONES: Record<string, BadgeTone> = {
  draft: "neutral",
  active: "success",
  paused: "warning",
  archived: "neutral",
};

export const AUTOMATION_STATUS_OPTIONS = LISTED_STATUSES.map((value) => ({ value, label: LABELS[value]! }));

export function isListedStatus(value: string | undefined): value is ListedStatus {
  return (LISTED_STATUSES as readonly string[]).includes(value ?? "");
}

/** The automation's status as a badge with its word, so colour never carries the meaning alone. */
export function AutomationStatusBadge({ status }: { status: string }) {
  return (
    <Badge tone={TONES[status] ?? "neutral"} dot>
      {LABELS[status] ?? status}
    </Badge>
  );
}
