import Link from "next/link";
import { cn } from "@/components/ui/cn";

/** Emails or HTTP deliveries: two views of the outbox, as links so each has its own URL. */
export function OutboxTabs({ kind }: { kind: "email" | "http" }) {
  return (
    <nav aria-label="Outbox" className="flex gap-1 border-b border-zinc-200 px-5">
      {(
        [
          { value: "email", label: "Emails", href: "/outbox" },
          { value: "http", label: "HTTP deliveries", href: "/outbox?kind=http" },
        ] as const
      ).map((tab) => (
        <Link
          key={tab.value}
          href={tab.href}
          aria-current={kind === tab.value ? "page" : undefined}
          className={cn(
            "-mb-px border-b-2 px-3 py-3 text-sm font-medium",
            kind === tab.value
              ? "border-zinc-900 text-zinc-900"
              : "border-transparent text-zinc-600 hover:text-zinc-900",
          )}
        >
          {tab.label}
        </Link>
      ))}
    </nav>
  );
}
