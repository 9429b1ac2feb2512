"use client";

import type { InFlightPolicy } from "@/lib/automations/lifecycle/policies";
import type { AutomationView } from "@/lib/automations/lifecycle/read";
import { ResetBuiltinButton } from "./lazy-children";
import { SettingsPanel } from "./settings-panel";

export interface SettingsTabProps {
  automation: Pick<AutomationView, "id" | "name" | "builtinSlug">;
  isAdmin: boolean;
  name: string;
  policy: InFlightPolicy;
  readOnly: boolean;
  onNameChange(name: string): void;
  onPolicyChange(policy: InFlightPolicy): void;
  /** Says what a reset did, above the editor. */
  onNotice(text: string): void;
}

/**
 * The Settings tab (loaded when first shown): the automation's name and policy, and for a
 * built-in, what it is and (admins) Reset.
 */
export function SettingsTab({ automation, isAdmin, onNotice, ...settings }: SettingsTabProps) {
  return (
    <div className="space-y-6">
      <SettingsPanel {...settings} />
      {automation.builtinSlug && (
        <section className="space-y-2 border-t border-zinc-200 pt-4 text-sm text-zinc-600">
          <h3 className="font-semibold text-zinc-900">Built-in automation</h3>
          <p>
            One of the platform&apos;s own jobs. You can change its schedule and steps or pause it; it cannot
            be archived.
          </p>
          {isAdmin && (
            <ResetBuiltinButton
              automationId={automation.id}
              name={automation.name}
              onReset={(version) =>
                onNotice(`Reset to the built-in definition, published as version ${version}.`)
              }
            />
          )}
        </section>
      )}
    </div>
  );
}
