"use client";

import { useMemo, useRef } from "react";
import { Input } from "@/components/ui/form";
import { cn } from "@/components/ui/cn";
import { FormField, Textarea } from "./field";
import { templatedText, type FieldTemplating } from "./templating";
import { TokenPicker, type TokenTarget } from "./token-picker";
import type { TokenOption } from "@/lib/automations/review/tokens-for";

export interface TextFieldProps {
  label: string;
  /** The param edited, as `data-param` on the field (a hook for tests). */
  param?: string;
  value: string;
  onChange(text: string): void;
  hint?: string;
  error?: string;
  optional?: boolean;
  placeholder?: string;
  disabled?: boolean;
  /** A textarea instead of one line. */
  multiline?: boolean;
  /** Monospace, for JSON and header lines. */
  mono?: boolean;
  /** Tokens for the "Insert token" picker; none (or an empty list) means the field takes no tokens. */
  tokens?: readonly TokenOption[];
  /**
   * For a field that takes tokens: how they are checked (a problem shows as the field's error,
   * worded as the ready issue is) and previewed under it as the merchant types.
   */
  templating?: FieldTemplating;
}

/** A labelled text input or textarea, with the token picker beside the label when it takes tokens. */
export function TextField({
  label,
  param,
  value,
  onChange,
  hint,
  error,
  optional,
  placeholder,
  disabled = false,
  multiline = false,
  mono = false,
  tokens,
  templating,
}: TextFieldProps) {
  const ref = useRef<TokenTarget | null>(null);
  const typed = useMemo(() => (templating ? templatedText(value, templating) : null), [value, templating]);
  const picker =
    tokens && tokens.length > 0
      ? (labelId: string) => (
          <TokenPicker
            tokens={tokens}
            target={ref}
            labelId={labelId}
            disabled={disabled}
            onInsert={onChange}
          />
        )
      : undefined;
  return (
    <FormField
      label={label}
      param={param}
      hint={hint}
      // The schema's message first (a required field left empty); then what is wrong with a token.
      error={error ?? typed?.problem}
      optional={optional}
      action={picker}
      preview={typed?.preview != null ? { text: typed.preview, of: templating?.previewOf ?? "" } : null}
    >
      {(a11y) =>
        multiline ? (
          <Textarea
            {...a11y}
            ref={(node) => {
              ref.current = node;
            }}
            value={value}
            placeholder={placeholder}
            disabled={disabled}
            spellCheck={mono ? false : undefined}
            className={cn(mono && "font-mono text-xs")}
            onChange={(event) => onChange(event.target.value)}
          />
        ) : (
          <Input
            {...a11y}
            ref={(node) => {
              ref.current = node;
            }}
            type="text"
            value={value}
            placeholder={placeholder}
            disabled={disabled}
            className={cn(mono && "font-mono text-xs")}
            onChange={(event) => onChange(event.target.value)}
          />
        )
      }
    </FormField>
  );
}
