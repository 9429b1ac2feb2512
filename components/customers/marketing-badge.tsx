import { Badge } from "@/components/ui/badge";

/** Whether the customer agreed to marketing email, in words. */
export function MarketingBadge({ accepts }: { accepts: boolean | null }) {
  if (accepts === null) return <span className="text-zinc-400">—</span>;
  return accepts ? (
    <Badge tone="success" dot>
      Subscribed
    </Badge>
  ) : (
    <Badge dot>Not subscribed</Badge>
  );
}
