"use client";

import { useId, useMemo, useState } from "react";
import { FieldHint, Input, Select } from "@/components/ui/form";
import { coerceField, paramFields, type ParamField } from "@/lib/automations/editor/param-form";
import { Checkbox, FieldError, FormError, FormField, FormFieldset } from "./field";
import type { ConfigFormProps } from "./form-props";
import { rawFromValue, withParam, type RawValue } from "./raw-values";
import { RETRY_PARAM } from "./retry-form";
import { TextField } from "./text-field";
import { forField, type FieldTemplating } from "./templating";
import type { TokenOption } from "@/lib/automations/review/tokens-for";

/**
 * The settings form any node type gets from its params schema (`paramFields`), for the types
 * without a form of their own. Each input keeps what was typed; every edit sends the complete
 * params with the coerced value (`coerceField`), and the schema's messages show under the fields.
 */
export function ParamForm({
  definition,
  params,
  errors,
  tokens,
  templating,
  shownElsewhere,
  paramNote,
  disabled,
  onChange,
}: ConfigFormProps) {
  // `retry` has a section of its own under the form ("On failure", `retry-config.tsx`), and the
  // params the panel shows elsewhere theirs: a credential's picker, a step's own part.
  const fields = useMemo(
    () =>
      paramFields(definition).filter(
        (field) => field.name !== RETRY_PARAM && !(shownElsewhere ?? []).includes(field.name),
      ),
    [definition, shownElsewhere],
  );
  // Optional params the node leaves out by default read "Any" when empty (a status change "from any").
  const defaults = useMemo(() => {
    try {
      return new Set(Object.keys(definition.defaultParams() as Record<string, unknown>));
    } catch {
      return new Set<string>();
    }
  }, [definition]);
  const [raw, setRaw] = useState<Record<string, RawValue>>(() =>
    Object.fromEntries(fields.map((field) => [field.name, rawFromValue(field, params[field.name])])),
  );

  function update(field: ParamField, value: RawValue) {
    setRaw((current) => ({ ...current, [field.name]: value }));
    onChange(withParam(params, field.name, coerceField(field, value)));
  }

  if (fields.length === 0) {
    return <p className="text-sm text-zinc-600">This step has no settings.</p>;
  }
  return (
    <div className="space-y-4">
      <FormError>{errors[""]}</FormError>
      {fields.map((field) => (
        <ParamInput
          key={field.name}
          field={withNote(field, paramNote?.(field.name, params) ?? null)}
          raw={raw[field.name] ?? rawFromValue(field, undefined)}
          error={errors[field.name]}
          hasDefault={defaults.has(field.name)}
          tokens={field.templated ? tokens : undefined}
          templating={field.templated ? forField(templating, definition, params, field.name) : undefined}
          disabled={disabled}
          onChange={(value) => update(field, value)}
        />
      ))}
    </div>
  );
}

/** The field with the step's note on it (`StepForm.paramNote`) after its help. */
function withNote(field: ParamField, note: string | null): ParamField {
  return note ? { ...field, help: [field.help, note].filter(Boolean).join(" ") } : field;
}

interface ParamInputProps {
  field: ParamField;
  raw: RawValue;
  error: string | undefined;
  /** The node fills this param in by default: it is never empty, so never "optional" or "Any". */
  hasDefault: boolean;
  tokens: readonly TokenOption[] | undefined;
  templating: FieldTemplating | undefined;
  disabled: boolean;
  onChange(value: RawValue): void;
}

function asText(raw: RawValue): string {
  return typeof raw === "string" ? raw : Array.isArray(raw) ? raw.join(", ") : "";
}

/** One param's input, by its kind. */
function ParamInput({
  field,
  raw,
  error,
  hasDefault,
  tokens,
  templating,
  disabled,
  onChange,
}: ParamInputProps) {
  const optional = !field.required && !hasDefault;
  const common = { label: field.label, param: field.name, error, optional, disabled };
  switch (field.kind) {
    case "text":
    case "textarea":
      return (
        <TextField
          {...common}
          hint={field.help}
          placeholder={field.placeholder}
          multiline={field.kind === "textarea"}
          tokens={tokens}
          templating={templating}
          value={asText(raw)}
          onChange={onChange}
        />
      );
    case "json":
    case "record":
      return (
        <TextField
          {...common}
          hint={field.help}
          placeholder={field.kind === "json" ? "{}" : "X-Shop: demo"}
          multiline
          mono
          tokens={tokens}
          templating={templating}
          value={asText(raw)}
          onChange={onChange}
        />
      );
    case "list":
      return field.options ? (
        <FormFieldset legend={field.label} hint={field.help} error={error} optional={optional}>
          {(invalid) => (
            <div className="flex flex-wrap gap-x-4 gap-y-2">
              {field.options?.map((option) => {
                const ticked = Array.isArray(raw) && raw.includes(option.value);
                return (
                  <Checkbox
                    key={option.value}
                    label={option.label}
                    checked={ticked}
                    disabled={disabled}
                    aria-invalid={invalid}
                    onChange={(event) => {
                      const current = Array.isArray(raw) ? raw : [];
                      onChange(
                        event.target.checked
                          ? [...current, option.value]
                          : current.filter((value) => value !== option.value),
                      );
                    }}
                  />
                );
              })}
            </div>
          )}
        </FormFieldset>
      ) : (
        <TextField
          {...common}
          hint={field.help ?? "Separate values with commas."}
          placeholder={field.placeholder}
          value={asText(raw)}
          onChange={onChange}
        />
      );
    case "number":
      return (
        <FormField {...common} hint={field.help}>
          {(a11y) => (
            <Input
              {...a11y}
              type="number"
              inputMode="numeric"
              min={field.min}
              max={field.max}
              placeholder={field.placeholder}
              disabled={disabled}
              value={asText(raw)}
              onChange={(event) => onChange(event.target.value)}
            />
          )}
        </FormField>
      );
    case "select": {
      const value = asText(raw);
      const known = field.options?.some((option) => option.value === value) ?? false;
      return (
        <FormField {...common} hint={field.help}>
          {(a11y) => (
            <Select
              {...a11y}
              disabled={disabled}
              value={value}
              onChange={(event) => onChange(event.target.value)}
            >
              {optional ? (
                <option value="">Any</option>
              ) : (
                value === "" && (
                  <option value="" disabled>
                    Choose…
                  </option>
                )
              )}
              {/* A stored value the schema no longer offers is shown, so it is not silently replaced. */}
              {value !== "" && !known && <option value={value}>{value}</option>}
              {field.options?.map((option) => (
                <option key={option.value} value={option.value}>
                  {option.label}
                </option>
              ))}
            </Select>
          )}
        </FormField>
      );
    }
    case "boolean":
      return <BooleanInput field={field} raw={raw} error={error} disabled={disabled} onChange={onChange} />;
  }
}

function BooleanInput({
  field,
  raw,
  error,
  disabled,
  onChange,
}: Pick<ParamInputProps, "field" | "raw" | "error" | "disabled" | "onChange">) {
  const id = useId();
  const described = [error && `${id}-error`, field.help && `${id}-hint`].filter(Boolean).join(" ");
  return (
    <div>
      <Checkbox
        label={field.label}
        checked={raw === true}
        disabled={disabled}
        aria-invalid={error ? true : undefined}
        aria-describedby={described || undefined}
        onChange={(event) => onChange(event.target.checked)}
      />
      <FieldError id={`${id}-error`}>{error}</FieldError>
      {field.help && <FieldHint id={`${id}-hint`}>{field.help}</FieldHint>}
    </div>
  );
}
