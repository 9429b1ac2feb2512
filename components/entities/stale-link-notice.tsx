import Link from "next/link";
import { Notice } from "@/components/ui/notice";

/** Shown when a list's `cursor` in the URL is no longer valid: explains it and links to page one. */
export function StaleLinkNotice({
  error,
  firstPage,
}: {
  error: string | null | undefined;
  firstPage: string;
}) {
  return (
    <div className="p-5">
      <Notice tone="warning" title="This page link no longer works">
        {error}{" "}
        <Link href={firstPage} className="font-medium underline">
          Go to the first page
        </Link>
        .
      </Notice>
    </div>
  );
}
