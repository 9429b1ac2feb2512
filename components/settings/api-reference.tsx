"use client";

import dynamic from "next/dynamic";
import { Spinner } from "@/components/ui/spinner";

/**
 * The API reference, loaded only on this page and only in the browser: the viewer is large (it
 * bundles its own renderer), and no other page should carry it.
 */
const Viewer = dynamic(() => import("./api-reference-viewer"), {
  ssr: false,
  loading: () => (
    <div className="flex items-center gap-2 px-5 py-8 text-sm text-zinc-600">
      <Spinner /> Loading the API reference…
    </div>
  ),
});

export function ApiReference({ url }: { url: string }) {
  return <Viewer url={url} />;
}
