"use client";

import type { JSX } from "react";
import { Select } from "@/components/ui/form";
import { KIND_LABELS } from "@/lib/credentials/kinds";
import {
  addCredentialHref,
  credentialLabel,
  hostWarning,
  optionsFor,
  type CredentialOption,
  type CredentialSlot,
} from "./credential-options";
import { FormField } from "./field";

/** Where credentials are added, rotated and deleted. */
export const MANAGE_CREDENTIALS_HREF = "/settings/credentials";

/**
 * A step's credential, chosen by name from the shop's (Settings → Credentials); the value never
 * reaches the editor. Writes the step's reference (`auth`, `secretCredentialId`) or removes it.
 */
export function CredentialPicker({
  slot,
  params,
  credentials,
  error,
  disabled,
  onChange,
}: {
  slot: CredentialSlot;
  params: Record<string, unknown>;
  credentials: readonly CredentialOption[];
  /** The step's message about its credential ("Slack webhook is required: …"), for a required slot. */
  error?: string;
  disabled: boolean;
  onChange(params: Record<string, unknown>): void;
}): JSX.Element {
  const options = optionsFor(slot, credentials);
  const chosen = slot.read(params);
  const known = chosen === "" || options.some((option) => option.id === chosen);
  // A plain secret from an older client: the save turns it into a credential and chooses it here.
  const plainSecret = chosen === "" && typeof params.secret === "string" && params.secret !== "";
  const kinds = slot.kinds.map((kind) => KIND_LABELS[kind].label.toLowerCase()).join(", ");
  const sendsHttp = slot.params[0] === "auth";
  // The step's host outside the chosen credential's list: said here, before a run refuses it.
  const refused = sendsHttp
    ? hostWarning(
        params,
        options.find((option) => option.id === chosen),
      )
    : null;
  const hint = plainSecret
    ? "This trigger's secret will be stored as a credential when you save."
    : options.length === 0
      ? slot.manage
        ? slot.manage.empty
        : `The shop has no credential of this kind (${kinds}) yet: an admin adds one in Settings → Credentials.`
      : slot.hint;
  return (
    <div data-credential-picker>
      <FormField
        label={slot.label}
        param={slot.params[0]}
        hint={hint}
        error={slot.required ? error : (refused ?? undefined)}
        optional={!slot.required}
      >
        {(a11y) => (
          <Select
            {...a11y}
            disabled={disabled}
            value={chosen}
            onChange={(event) =>
              onChange(
                slot.write(
                  params,
                  event.target.value,
                  options.find((option) => option.id === event.target.value),
                ),
              )
            }
          >
            {slot.required ? (
              <option value="" disabled>
                Choose…
              </option>
            ) : (
              <option value="">None</option>
            )}
            {/* Deleted since, or added after the editor opened: kept so it is not silently dropped. */}
            {!known && <option value={chosen}>A credential not in this list</option>}
            {options.map((option) => (
              <option key={option.id} value={option.id}>
                {credentialLabel(option)}
              </option>
            ))}
          </Select>
        )}
      </FormField>
      <a
        // From an HTTP step, the new credential's form proposes the step's host as its first allowed host.
        href={
          slot.manage?.href ??
          (sendsHttp ? addCredentialHref(MANAGE_CREDENTIALS_HREF, params) : MANAGE_CREDENTIALS_HREF)
        }
        className="mt-1.5 inline-block text-xs font-medium text-indigo-700 hover:underline"
      >
        {slot.manage?.label ?? "Manage credentials"}
      </a>
    </div>
  );
}
