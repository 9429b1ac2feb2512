"use client";

import { useRouter } from "next/navigation";
import { VersionsPanel, type VersionsPanelProps } from "./versions-panel";

export type VersionsTabProps = Omit<VersionsPanelProps, "onReverted"> & {
  /** Says what a revert did, above the editor. */
  onNotice(text: string): void;
};

/**
 * The Versions tab (loaded when first shown): the versions list; after a revert it says which
 * version is live and the page reloads its data.
 */
export function VersionsTab({ onNotice, ...props }: VersionsTabProps) {
  const router = useRouter();
  return (
    <VersionsPanel
      {...props}
      onReverted={({ version }) => {
        onNotice(`Version ${version} is live, with the steps of the version you reverted to.`);
        router.refresh();
      }}
    />
  );
}
