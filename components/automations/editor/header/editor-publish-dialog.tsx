"use client";

import { useRouter } from "next/navigation";
import type { Graph } from "@/lib/automations/graph/schema";
import type { InFlightPolicy } from "@/lib/automations/lifecycle/policies";
import type { AutomationView } from "@/lib/automations/lifecycle/read";
import { PublishDialog } from "./publish-dialog";

export interface EditorPublishDialogProps {
  automation: Pick<AutomationView, "id" | "name" | "version" | "status" | "activeGraph">;
  draftGraph: Graph;
  draftName: string;
  policy: InFlightPolicy;
  /** The draft is the active version as it is: nothing to publish. */
  unchanged: boolean;
  open: boolean;
  onClose(): void;
  onPolicyChange(policy: InFlightPolicy): void;
  /** The name given in the dialog to an unnamed draft. */
  onNameChange(name: string): void;
  /** Saves the draft now; false when it could not be saved. */
  beforePublish(): Promise<boolean>;
  /** Says what publishing did, above the editor. */
  onNotice(text: string): void;
}

/**
 * The publish dialog as the editor opens it (loaded when first opened, `lazy-parts.tsx`): once
 * published, it says so and the page reloads its data.
 */
export function EditorPublishDialog({
  automation,
  policy,
  open,
  onClose,
  onNotice,
  ...rest
}: EditorPublishDialogProps) {
  const router = useRouter();
  return (
    <PublishDialog
      {...rest}
      automation={{
        id: automation.id,
        name: automation.name,
        version: automation.version,
        status: automation.status,
        inFlightPolicy: policy,
        activeGraph: automation.activeGraph,
      }}
      open={open}
      onClose={onClose}
      onPublished={({ version, published, message }) => {
        onClose();
        onNotice(
          published
            ? `Version ${version} is live. ${message}`
            : `Nothing changed since version ${version}; it is active. ${message}`,
        );
        router.refresh();
      }}
    />
  );
}
