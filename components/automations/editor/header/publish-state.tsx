import { publishStateText } from "./publish-text";

/**
 * The Issues panel once every step is set up: what runs now and what publishing would change
 * (`publishStateText`), never a call to publish for a viewer or for a draft with nothing new.
 */
export function PublishState(props: Parameters<typeof publishStateText>[0]) {
  const { title, detail } = publishStateText(props);
  return (
    <div
      role="status"
      className="rounded-lg border border-emerald-200 bg-emerald-50 px-3 py-2 text-sm text-emerald-900"
    >
      <p className="font-semibold">{title}</p>
      {detail && <p className="mt-0.5">{detail}</p>}
    </div>
  );
}
