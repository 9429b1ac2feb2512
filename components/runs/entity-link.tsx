import Link from "next/link";

/** Domains with a page of their own; the others show as text. */
const PAGES: Record<string, string> = { order: "/orders", customer: "/customers" };

/**
 * A run's subject: "order ord_1001", linked to the record's page where there is one. With `label`
 * ("Order #1001 · €1,250.00 · ana@shop.test", a run summary's `entityLabel`) it shows that instead
 * of the id.
 */
export function EntityLink({
  domain,
  id,
  label: text,
}: {
  domain: string;
  id: string | null;
  label?: string;
}) {
  if (!id) return <span className="text-zinc-500">{domain === "schedule" ? "Schedule" : domain}</span>;
  const page = PAGES[domain];
  const label = text ?? (
    <>
      <span className="text-zinc-500">{domain} </span>
      {id}
    </>
  );
  if (!page) return <span className="break-all">{label}</span>;
  return (
    <Link
      href={`${page}/${encodeURIComponent(id)}`}
      className="break-all text-zinc-900 underline-offset-2 hover:underline"
    >
      {label}
    </Link>
  );
}
