import { CopyButton } from "@/components/ui/copy-button";

/** A connection's webhook URL, selectable, with a button that copies it. */
export function ConnectionUrl({ url }: { url: string }) {
  return (
    <span className="inline-flex flex-wrap items-center gap-2">
      <code className="rounded bg-zinc-100 px-1.5 py-0.5 font-mono text-xs break-all text-zinc-800">
        {url}
      </code>
      <CopyButton value={url} label="Copy URL" />
    </span>
  );
}
