import { Badge } from "@/components/ui/badge";

/** A record's tags as small badges; a dash when there are none (so a table cell never looks broken). */
export function TagList({ tags, emptyText = "—" }: { tags: string[]; emptyText?: string }) {
  if (tags.length === 0) return <span className="text-zinc-500">{emptyText}</span>;
  return (
    <ul className="flex flex-wrap gap-1" aria-label="Tags">
      {tags.map((tag) => (
        <li key={tag}>
          <Badge>{tag}</Badge>
        </li>
      ))}
    </ul>
  );
}
