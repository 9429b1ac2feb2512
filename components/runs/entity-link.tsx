import Link from "next/link";
import { Fragment } from "react";

/** Domains with a page of their own; the others show as text. */
const PAGES: Record<string, string> = { order: "/orders", customer: "/customers" };

/**
 * A run's subject: "order ord_1001", linked to the record's page where there is one. With `label`
 * ("Order #1001 · €1,250.00 · ana@shop.test", a run summary's `entityLabel`) it shows that instead
 * of the id.
 *
 * In a narrow column the label wraps only between its parts, never inside one ("€6 5.00"), and a
 * part too long for the column (an email, an id) ends in an ellipsis, whole on hover.
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
  const label = text ? (
    <LabelParts text={text} />
  ) : (
    <>
      <span className="text-zinc-500">{domain} </span>
      <Part text={id} />
    </>
  );
  if (!page) return <span>{label}</span>;
  return (
    <Link
      href={`${page}/${encodeURIComponent(id)}`}
      className="text-zinc-900 underline-offset-2 hover:underline"
      data-testid="entity-link"
    >
      {label}
    </Link>
  );
}

function LabelParts({ text }: { text: string }) {
  return text.split(" · ").map((part, i) => (
    <Fragment key={i}>
      {i > 0 && " · "}
      <Part text={part} />
    </Fragment>
  ));
}

/**
 * One part of a label, kept on one line: cut with an ellipsis at 10rem, so it fits the 12rem
 * record columns of Runs and Waiting with their padding.
 */
function Part({ text }: { text: string }) {
  return (
    <span className="inline-block max-w-40 truncate align-bottom" title={text} data-testid="entity-part">
      {text}
    </span>
  );
}
