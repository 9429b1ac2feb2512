"use client";

import { useId } from "react";
import { FieldHint, Input, Label } from "@/components/ui/form";
import type { CredentialKind } from "@/lib/credentials/kinds";

/**
 * The secret part of a credential form, typed as a password so it never shows on screen. A
 * header credential asks for the header's name in the open and only its value masked; the
 * two are sent as one `Name: value` line, the form its kind stores.
 */
export interface CredentialValue {
  /** For an `http_header` credential: the header's name. */
  header: string;
  secret: string;
}

export const EMPTY_VALUE: CredentialValue = { header: "", secret: "" };

/** What the store receives for `kind`. */
export function credentialValue(kind: CredentialKind, value: CredentialValue): string {
  return kind === "http_header" ? `${value.header.trim()}: ${value.secret}` : value.secret;
}

const PLACEHOLDERS: Partial<Record<CredentialKind, string>> = {
  basic: "username:password",
  slack_webhook: "https://hooks.slack.com/services/…",
};

export function CredentialValueFields({
  kind,
  value,
  error,
  label = "Value",
  onChange,
}: {
  kind: CredentialKind;
  value: CredentialValue;
  error: string | null;
  /** The secret's label ("Value", "New value"). */
  label?: string;
  onChange(value: CredentialValue): void;
}) {
  const ids = { header: useId(), secret: useId(), error: useId(), hint: useId() };
  const invalid = error ? true : undefined;
  return (
    <div className="space-y-3">
      {kind === "http_header" && (
        <div>
          <Label htmlFor={ids.header}>Header name</Label>
          <Input
            id={ids.header}
            required
            maxLength={200}
            autoComplete="off"
            spellCheck={false}
            placeholder="X-Api-Key"
            value={value.header}
            aria-invalid={invalid}
            onChange={(e) => onChange({ ...value, header: e.target.value })}
            className="mt-1.5 font-mono"
          />
        </div>
      )}
      <div>
        <Label htmlFor={ids.secret}>{kind === "http_header" ? "Header value" : label}</Label>
        <Input
          id={ids.secret}
          type="password"
          required
          // A browser that offered to remember it as a sign-in password would keep a copy.
          autoComplete="new-password"
          spellCheck={false}
          placeholder={PLACEHOLDERS[kind]}
          value={value.secret}
          aria-invalid={invalid}
          aria-describedby={[error && ids.error, ids.hint].filter(Boolean).join(" ")}
          onChange={(e) => onChange({ ...value, secret: e.target.value })}
          className="mt-1.5 font-mono"
        />
        {error && (
          <p id={ids.error} className="mt-1.5 text-xs font-medium text-red-700">
            {error}
          </p>
        )}
        <FieldHint id={ids.hint}>
          Tillflow encrypts it and never shows it again: after saving you see only its last 4 characters.
        </FieldHint>
      </div>
    </div>
  );
}
