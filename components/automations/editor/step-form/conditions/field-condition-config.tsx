"use client";

import { useQuery } from "@tanstack/react-query";
import { useEffect, useMemo, useRef, useState } from "react";
import { Input, Select } from "@/components/ui/form";
import { listAttributePathsAction } from "@/lib/actions/entities/list-attribute-paths";
import {
  fieldCondition,
  fieldConditionDomainIssues,
  type FieldOperator,
} from "@/lib/automations/nodes/conditions/field";
import { hasRecord } from "@/lib/automations/nodes/registry";
import { ATTRIBUTES_KEY, DOMAIN_LABELS, type Domain } from "@/lib/domains/domains";
import { domainFields, fieldAt, type FieldInfo, type FieldType } from "@/lib/domains/fields";
import type { AttributePath, AttributeType } from "@/lib/entities/attribute-paths";
import { fieldLabel, storeFieldLabel } from "@/lib/domains/labels";
import { Checkbox, FormError, FormField, FormFieldset } from "../field";
import type { ConfigFormProps } from "../form-props";
import type { EarlierStep } from "@/lib/automations/review/tokens-for";
import {
  defaultInput,
  inputToValue,
  isFieldOperator,
  operatorLabel,
  operatorsFor,
  valueKindFor,
  valueToInput,
  type ConditionValue,
  type ValueInput,
  type ValueKind,
} from "./operators";

/** The Field select's choice that reveals a free-text path. */
const OTHER = "__other__";
/** Before a choice's value: the start of a path under an earlier step's output, finished by typing. */
const OPEN = "__open__:";

interface StepChoice {
  /** `steps.h.status`, or for an open one the start to finish: `steps.h.body.` */
  path: string;
  label: string;
  open: boolean;
}

/** What earlier steps declare they hand on, as the Field select offers it ("The answer's status code (step 'h')"). */
function stepChoices(steps: readonly EarlierStep[]): StepChoice[] {
  return steps
    .filter((step) => /^\w+$/.test(step.id))
    .flatMap((step) =>
      (step.outputs ?? []).map(({ path, label }) => {
        const open = path === "*" || path.endsWith(".*");
        const start = path === "*" ? "" : open ? `${path.slice(0, -1)}` : path;
        const text = `${label.charAt(0).toUpperCase()}${label.slice(1)} (step '${step.id}')${open ? "…" : ""}`;
        return { path: `steps.${step.id}.${start}`, label: text, open };
      }),
    );
}

const NO_STEPS: readonly EarlierStep[] = [];
const NO_ATTRIBUTES: readonly AttributePath[] = [];

/** How the picker names what a store sent: "text", "yes or no"… */
const ATTRIBUTE_TYPE_WORDS: Record<AttributeType, string> = {
  text: "text",
  number: "number",
  boolean: "yes or no",
  list: "list",
  object: "group of fields",
  empty: "always empty",
  mixed: "mixed",
};

/** The field type a store's value behaves as, so the comparisons offered fit it; `any` when unsure. */
const ATTRIBUTE_FIELD_TYPES: Record<AttributeType, FieldType> = {
  text: "string",
  number: "number",
  boolean: "boolean",
  list: "array",
  object: "object",
  empty: "any",
  mixed: "any",
};

/**
 * "Note attribute "gift_note" · text · e.g. yes", "shipping_lines.0.title · text · e.g. DHL": an
 * attribute path as the Field select offers it.
 */
export function attributeChoiceLabel(attribute: AttributePath): string {
  const name = storeFieldLabel(attribute.path.slice(ATTRIBUTES_KEY.length + 1)).replace(
    / from the store$/,
    "",
  );
  const parts = [name, ATTRIBUTE_TYPE_WORDS[attribute.type]];
  if (attribute.sample !== null) parts.push(`e.g. ${attribute.sample}`);
  return parts.join(" · ");
}

/** The attribute paths this shop's latest records of `domain` carry, from the server; empty until loaded. */
function useAttributePaths(domain: Domain | null) {
  return useQuery({
    queryKey: ["attribute-paths", domain],
    enabled: domain !== null,
    // What a shop's records carry changes slowly; one question per domain while the editor is open.
    staleTime: 5 * 60_000,
    queryFn: async () => {
      if (!domain) return NO_ATTRIBUTES;
      const answer = await listAttributePathsAction({ domain });
      if (!answer.ok) throw new Error(answer.error);
      return answer.data.paths;
    },
  });
}

/**
 * A record's fields as the Field select offers them, in schema order: each item of a list both as
 * the first one's (`lineItems.0.sku`) and as any one's (`lineItems.*.sku`, "Any line item › SKU").
 */
function recordFields(domain: Domain): FieldInfo[] {
  return domainFields(domain)
    .filter((f) => !f.open)
    .flatMap((f) =>
      /\.0(\.|$)/.test(f.path) ? [f, { ...f, path: f.path.replace(/\.0(?=\.|$)/g, ".*") }] : [f],
    );
}

/** True when every word of the search is in the choice's label or path (no words: every choice). */
function matches(words: string, label: string, path: string): boolean {
  if (words === "") return true;
  const text = `${label} ${path}`.toLowerCase();
  return words.split(/\s+/).every((word) => text.includes(word));
}

/** The label of a path the Field select lists, for the chosen one a search hides. */
function choiceLabel(
  path: string,
  attributes: readonly AttributePath[],
  steps: readonly StepChoice[],
): string {
  const attribute = attributes.find((a) => a.path === path);
  if (attribute) return attributeChoiceLabel(attribute);
  return steps.find((c) => !c.open && c.path === path)?.label ?? fieldLabel(path);
}

function readValue(value: unknown): ConditionValue {
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") return value;
  if (Array.isArray(value)) {
    return value.filter(
      (item): item is string | number => typeof item === "string" || typeof item === "number",
    );
  }
  return undefined;
}

/**
 * `auto.condition.field`: a field of the trigger's record (picked from its schema, or typed as a
 * dot path such as `lineItems.0.sku`), a comparison that fits its type, and a value input that
 * fits both. Runs without a record (webhook, schedule) get a free-text path.
 */
export function FieldConditionConfig({
  params,
  errors,
  triggerDomain,
  earlierSteps = NO_STEPS,
  disabled,
  onChange,
}: ConfigFormProps) {
  const domain = hasRecord(triggerDomain) ? triggerDomain : null;
  // The open object itself is not offered: the paths under it are, from the shop's records. A
  // list's items are offered as the first one's and as any one's ("Any line item › SKU").
  const allFields = useMemo(() => (domain ? recordFields(domain) : []), [domain]);
  const allSteps = useMemo(() => stepChoices(earlierSteps), [earlierSteps]);
  const attributeQuery = useAttributePaths(domain);
  const allAttributes = attributeQuery.data ?? NO_ATTRIBUTES;
  // The search box narrows the three lists by what the merchant reads (and the path itself).
  const [query, setQuery] = useState("");
  const words = query.trim().toLowerCase();
  const fields = useMemo(
    () => allFields.filter((f) => matches(words, fieldLabel(f.path), f.path)),
    [allFields, words],
  );
  const steps = useMemo(() => allSteps.filter((c) => matches(words, c.label, c.path)), [allSteps, words]);
  const attributes = useMemo(
    () => allAttributes.filter((a) => matches(words, attributeChoiceLabel(a), a.path)),
    [allAttributes, words],
  );
  const found = fields.length + steps.length + attributes.length;

  const path = typeof params.path === "string" ? params.path : "";
  const operator: FieldOperator =
    typeof params.operator === "string" && isFieldOperator(params.operator) ? params.operator : "eq";

  /** The field at a path; under `attributes`, typed as the shop's records show it. */
  function fieldFor(at: string): FieldInfo | null {
    const known = domain ? (fieldAt(domain, at) ?? null) : null;
    if (known?.type !== "any") return known;
    const seen = attributes.find((a) => a.path === at);
    return seen ? { path: at, type: ATTRIBUTE_FIELD_TYPES[seen.type] } : known;
  }

  const field = fieldFor(path);
  const kind = valueKindFor(field, operator);

  const listed =
    allFields.some((f) => f.path === path) ||
    allSteps.some((c) => !c.open && c.path === path) ||
    allAttributes.some((a) => a.path === path);
  // The chosen field stays in the select while a search hides it (a select shows only its options).
  const shown =
    fields.some((f) => f.path === path) ||
    attributes.some((a) => a.path === path) ||
    steps.some((c) => !c.open && c.path === path);
  const hiddenChoice = path !== "" && listed && !shown ? path : null;
  /** The first choice the search leaves, which Enter in the search box picks. */
  const firstFound = fields[0]?.path ?? attributes[0]?.path ?? steps.find((c) => !c.open)?.path ?? null;
  // "Other path…" chosen, or typed in; a stored path the select does not list shows as typed.
  const [otherChosen, setOtherChosen] = useState(false);
  const other = otherChosen || (path !== "" && !listed);
  // A new start of a path (an earlier step's output to finish) starts the path input over.
  const [opened, setOpened] = useState(0);
  const [input, setInput] = useState<ValueInput>(() => valueToInput(kind, readValue(params.value)));

  // Messages about the record (an unknown path, a value the field never has), under their field.
  const domainIssue = useMemo(() => {
    if (!domain) return undefined;
    const parsed = fieldCondition.params.safeParse(params);
    return parsed.success ? fieldConditionDomainIssues(parsed.data, domain)[0] : undefined;
  }, [domain, params]);
  const pathError = errors.path ?? (domainIssue && !field ? domainIssue : undefined);
  const valueError = errors.value ?? (domainIssue && field ? domainIssue : undefined);

  function emit(
    nextPath: string,
    nextOperator: FieldOperator,
    nextInput: ValueInput,
    nextField: FieldInfo | null,
  ) {
    setInput(nextInput);
    const value = inputToValue(valueKindFor(nextField, nextOperator), nextInput, nextField);
    const next: Record<string, unknown> = { ...params, path: nextPath, operator: nextOperator };
    if (value === undefined) delete next.value;
    else next.value = value;
    onChange(next);
  }

  /** A new path keeps the comparison and value when they still fit, and starts them over when not. */
  function changePath(nextPath: string) {
    const nextField = fieldFor(nextPath);
    const allowed = operatorsFor(nextField?.type ?? null);
    const nextOperator = allowed.includes(operator) ? operator : (allowed[0] ?? "eq");
    const nextKind = valueKindFor(nextField, nextOperator);
    const keep = nextKind === kind && nextKind !== "enum" && nextKind !== "enum-list";
    emit(nextPath, nextOperator, keep ? input : defaultInput(nextKind, nextField), nextField);
  }

  /** A new comparison carries the value over into its input, where it can. */
  function changeOperator(nextOperator: FieldOperator) {
    const nextKind = valueKindFor(field, nextOperator);
    let nextInput = input;
    if (nextKind !== kind) {
      nextInput = valueToInput(nextKind, inputToValue(kind, input, field));
      const empty = Array.isArray(nextInput) ? nextInput.length === 0 : nextInput === "";
      if (empty) nextInput = defaultInput(nextKind, field);
    }
    emit(path, nextOperator, nextInput, field);
  }

  const operators = operatorsFor(field?.type ?? null);
  // A stored comparison that does not fit the field is still shown, so it is not silently replaced.
  const shownOperators = operators.includes(operator) ? operators : [operator, ...operators];

  return (
    <div className="space-y-4">
      <FormError>{errors[""]}</FormError>
      {domain || allSteps.length > 0 ? (
        <>
          <FormField
            label="Search"
            hint={
              words === ""
                ? "Type part of a name (gift, SKU, country) to narrow the list below; Enter picks the first."
                : found === 0
                  ? "Nothing matches; try another word, or Other path… below."
                  : `${found} ${found === 1 ? "match" : "matches"} in the list below; Enter picks the first.`
            }
          >
            {(a11y) => (
              <Input
                {...a11y}
                type="search"
                autoComplete="off"
                spellCheck={false}
                placeholder="gift, SKU, country…"
                value={query}
                disabled={disabled}
                onChange={(event) => setQuery(event.target.value)}
                onKeyDown={(event) => {
                  if (event.key !== "Enter") return;
                  event.preventDefault();
                  if (firstFound === null) return;
                  setOtherChosen(false);
                  changePath(firstFound);
                }}
              />
            )}
          </FormField>
          <FormField label="Field" param="path" error={other ? undefined : pathError}>
            {(a11y) => (
              <Select
                {...a11y}
                value={other ? OTHER : path}
                disabled={disabled}
                onChange={(event) => {
                  if (event.target.value === OTHER) {
                    setOtherChosen(true);
                    return;
                  }
                  if (event.target.value.startsWith(OPEN)) {
                    setOtherChosen(true);
                    setOpened((n) => n + 1);
                    changePath(event.target.value.slice(OPEN.length));
                    return;
                  }
                  setOtherChosen(false);
                  changePath(event.target.value);
                }}
              >
                {path === "" && !other && (
                  <option value="" disabled>
                    Choose a field…
                  </option>
                )}
                {hiddenChoice !== null && (
                  <option value={hiddenChoice}>{choiceLabel(hiddenChoice, allAttributes, allSteps)}</option>
                )}
                {fields.map((f) => (
                  <option key={f.path} value={f.path}>
                    {fieldLabel(f.path)}
                  </option>
                ))}
                {domain && (words === "" || attributes.length > 0) && (
                  <StoreChoices domain={domain} attributes={attributes} status={attributeQuery.status} />
                )}
                {steps.length > 0 && (
                  <optgroup label="From earlier steps">
                    {steps.map((choice) => (
                      <option key={choice.path} value={choice.open ? `${OPEN}${choice.path}` : choice.path}>
                        {choice.label}
                      </option>
                    ))}
                  </optgroup>
                )}
                <option value={OTHER}>Other path…</option>
              </Select>
            )}
          </FormField>
          {other && (
            <PathInput
              key={opened}
              label="Path"
              path={path}
              error={pathError}
              disabled={disabled}
              onChange={(next) => {
                // Typing keeps the input open, even once the path is one the select lists.
                setOtherChosen(true);
                changePath(next);
              }}
              hint="A dot path such as total, lineItems.*.sku (any line item), attributes.note_attributes[name=gift_note].value or steps.h.body.points."
              focusEnd={opened > 0}
            />
          )}
        </>
      ) : (
        <PathInput
          label="Field"
          path={path}
          error={pathError}
          disabled={disabled}
          onChange={changePath}
          hint={
            triggerDomain === null
              ? "Add a trigger to pick from its record's fields."
              : "Runs of this trigger have no record to check."
          }
        />
      )}
      <FormField label="Operator" param="operator" error={errors.operator}>
        {(a11y) => (
          <Select
            {...a11y}
            value={operator}
            disabled={disabled}
            onChange={(event) => {
              if (isFieldOperator(event.target.value)) changeOperator(event.target.value);
            }}
          >
            {shownOperators.map((op) => (
              <option key={op} value={op}>
                {operatorLabel(op)}
              </option>
            ))}
          </Select>
        )}
      </FormField>
      <ValueInputFor
        kind={kind}
        field={field}
        input={input}
        error={valueError}
        disabled={disabled}
        onChange={(next) => emit(path, operator, next, field)}
      />
    </div>
  );
}

/**
 * The Field select's "From your store" group: the paths under `attributes` that the shop's latest
 * records carry, each with its type and an example. While they load, or when they cannot, one
 * disabled line says so; a shop whose records carry none gets no group.
 */
function StoreChoices({
  domain,
  attributes,
  status,
}: {
  domain: Domain;
  attributes: readonly AttributePath[];
  status: "pending" | "error" | "success";
}) {
  if (status === "success" && attributes.length === 0) return null;
  const many = DOMAIN_LABELS[domain].many;
  return (
    <optgroup label="From your store">
      {status === "pending" && (
        <option value="__store_loading__" disabled>
          Looking through your latest {many}…
        </option>
      )}
      {status === "error" && (
        <option value="__store_error__" disabled>
          Could not read your latest {many}; type a path with Other path…
        </option>
      )}
      {attributes.map((attribute) => (
        <option key={attribute.path} value={attribute.path}>
          {attributeChoiceLabel(attribute)}
        </option>
      ))}
    </optgroup>
  );
}

function PathInput({
  label,
  path,
  error,
  hint = "A dot path such as total or lineItems.0.sku.",
  disabled,
  onChange,
  focusEnd = false,
}: {
  label: string;
  path: string;
  error: string | undefined;
  hint?: string;
  disabled: boolean;
  onChange(path: string): void;
  /** Opened on the start of a path to finish: the caret waits at its end. */
  focusEnd?: boolean;
}) {
  const [text, setText] = useState(path);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    const element = input.current;
    if (!focusEnd || !element) return;
    element.focus();
    element.setSelectionRange(element.value.length, element.value.length);
    // Once, when it opens: later edits keep the caret where the merchant puts it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return (
    <FormField label={label} param="path" hint={hint} error={error}>
      {(a11y) => (
        <Input
          {...a11y}
          ref={input}
          type="text"
          spellCheck={false}
          autoComplete="off"
          placeholder="lineItems.0.sku"
          className="font-mono"
          value={text}
          disabled={disabled}
          onChange={(event) => {
            setText(event.target.value);
            onChange(event.target.value);
          }}
        />
      )}
    </FormField>
  );
}

interface ValueInputProps {
  kind: ValueKind;
  field: FieldInfo | null;
  input: ValueInput;
  error: string | undefined;
  disabled: boolean;
  onChange(input: ValueInput): void;
}

/** The value input that fits the field and comparison; nothing for "is set" / "is not set". */
function ValueInputFor({ kind, field, input, error, disabled, onChange }: ValueInputProps) {
  const text = Array.isArray(input) ? input.join(", ") : input;
  switch (kind) {
    case "none":
      return null;
    case "enum-list":
      return (
        <FormFieldset legend="Value" hint="Any of the ticked values matches." error={error}>
          {(invalid) => (
            <div className="flex flex-wrap gap-x-4 gap-y-2">
              {(field?.options ?? []).map((option) => {
                const list = Array.isArray(input) ? input : [];
                return (
                  <Checkbox
                    key={option}
                    label={option}
                    checked={list.includes(option)}
                    disabled={disabled}
                    aria-invalid={invalid}
                    onChange={(event) =>
                      onChange(
                        event.target.checked ? [...list, option] : list.filter((item) => item !== option),
                      )
                    }
                  />
                );
              })}
            </div>
          )}
        </FormFieldset>
      );
    case "enum":
    case "boolean": {
      const options = kind === "boolean" ? ["true", "false"] : (field?.options ?? []);
      return (
        <FormField label="Value" param="value" error={error}>
          {(a11y) => (
            <Select
              {...a11y}
              value={text}
              disabled={disabled}
              onChange={(event) => onChange(event.target.value)}
            >
              {!options.includes(text) && <option value={text}>{text || "Choose…"}</option>}
              {options.map((option) => (
                <option key={option} value={option}>
                  {option}
                </option>
              ))}
            </Select>
          )}
        </FormField>
      );
    }
    case "number":
      return (
        <FormField label="Value" param="value" error={error}>
          {(a11y) => (
            <Input
              {...a11y}
              type="number"
              step="any"
              inputMode="decimal"
              value={text}
              disabled={disabled}
              onChange={(event) => onChange(event.target.value)}
            />
          )}
        </FormField>
      );
    default: {
      const hint =
        kind === "list"
          ? "Separate values with commas."
          : kind === "date"
            ? "A date such as 2026-11-30 or 2026-11-30T09:00:00Z."
            : field?.type === "array"
              ? "Matches when any item is this value, whatever its case."
              : undefined;
      return (
        <FormField label="Value" param="value" hint={hint} error={error}>
          {(a11y) => (
            <Input
              {...a11y}
              type="text"
              placeholder={kind === "list" ? "paid, fulfilled" : undefined}
              value={text}
              disabled={disabled}
              onChange={(event) => onChange(event.target.value)}
            />
          )}
        </FormField>
      );
    }
  }
}
