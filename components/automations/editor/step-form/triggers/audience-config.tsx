"use client";

import { useId, useState } from "react";
import { Input, Select } from "@/components/ui/form";
import {
  AUDIENCE_FIELDS,
  audienceFromDraft,
  describeAudience,
  draftFromAudience,
  type AudienceDraft,
  type AudienceFieldInfo,
} from "@/lib/automations/schedules/audience-form";
import { Checkbox, FieldError, FormField, Textarea } from "../field";
import { Radio } from "../radio";

export interface AudienceConfigProps {
  /** The trigger's `audience` param: absent for one run per fire. */
  audience: unknown;
  /** The schema's message for `audience`, if any. */
  error: string | undefined;
  disabled: boolean;
  /** The new `audience` param; `undefined` takes it out. */
  onAudience(audience: Record<string, unknown> | undefined): void;
}

/**
 * Who a schedule runs for: once per fire, or once for each customer matching a filter built from
 * labelled fields (Accepts marketing, Orders, Total spent, tags, Customer since). The JSON those
 * fields make stays editable as an advanced view. The live count is the preview's, under the form.
 */
export function AudienceConfig({ audience, error, disabled, onAudience }: AudienceConfigProps) {
  const id = useId();
  const [perCustomer, setPerCustomer] = useState(audience !== undefined);
  const [draft, setDraft] = useState<AudienceDraft>(() => draftFromAudience(audience));
  const [asJson, setAsJson] = useState(false);
  const [jsonText, setJsonText] = useState(() => JSON.stringify(audience ?? {}, null, 2));
  const [jsonError, setJsonError] = useState<string | undefined>();
  const { audience: valid, errors } = audienceFromDraft(draft);

  function edit(next: AudienceDraft) {
    setDraft(next);
    onAudience(audienceFromDraft(next).json);
  }

  function choosePerCustomer(on: boolean) {
    setPerCustomer(on);
    if (on) {
      const json = audienceFromDraft(draft).json;
      setJsonText(JSON.stringify(json, null, 2));
      onAudience(json);
    } else {
      onAudience(undefined);
    }
  }

  function toggleJson(on: boolean) {
    setAsJson(on);
    setJsonError(undefined);
    if (on) setJsonText(JSON.stringify(audience ?? {}, null, 2));
    else setDraft(draftFromAudience(audience));
  }

  return (
    <div className="space-y-4">
      <fieldset>
        <legend className="mb-1.5 text-sm font-medium text-zinc-800">Each time it fires, start</legend>
        <div className="flex flex-col gap-2">
          {(
            [
              [false, "One run, not about any customer"],
              [true, "One run for each matching customer"],
            ] as const
          ).map(([value, label]) => (
            <Radio
              key={label}
              name={`${id}-who`}
              label={label}
              checked={perCustomer === value}
              disabled={disabled}
              onSelect={() => choosePerCustomer(value)}
            />
          ))}
        </div>
      </fieldset>

      {perCustomer && (
        <fieldset className="space-y-4 rounded-lg border border-zinc-200 p-3">
          <legend className="px-1 text-sm font-medium text-zinc-800">Customers to run for</legend>
          <FieldError id={`${id}-error`}>{error}</FieldError>
          {asJson ? (
            <FormField
              label="Audience (JSON)"
              param="audience"
              error={jsonError}
              hint="Fields: acceptsMarketing (true or false), minOrdersCount, minTotalSpent, tagsInclude and tagsExclude (lists of tags), createdWithinDays."
            >
              {(a11y) => (
                <Textarea
                  {...a11y}
                  rows={6}
                  className="font-mono"
                  spellCheck={false}
                  value={jsonText}
                  disabled={disabled}
                  onChange={(event) => {
                    setJsonText(event.target.value);
                    try {
                      const parsed: unknown = JSON.parse(event.target.value);
                      if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
                        setJsonError("The audience must be an object, such as {} for every customer.");
                        return;
                      }
                      setJsonError(undefined);
                      onAudience(parsed as Record<string, unknown>);
                    } catch {
                      setJsonError("This is not valid JSON yet.");
                    }
                  }}
                />
              )}
            </FormField>
          ) : (
            <>
              {AUDIENCE_FIELDS.map((info) => (
                <AudienceInput
                  key={info.field}
                  info={info}
                  draft={draft}
                  error={sentence(errors[info.field])}
                  disabled={disabled}
                  onChange={edit}
                />
              ))}
              <p className="text-sm text-zinc-900" data-testid="audience-words">
                {describeAudience(valid)}.
              </p>
            </>
          )}
          <Checkbox
            label="Edit the audience as JSON (advanced)"
            checked={asJson}
            disabled={disabled}
            onChange={(event) => toggleJson(event.target.checked)}
          />
        </fieldset>
      )}
    </div>
  );
}

/** "must be a whole number" as a sentence under its field: "Must be a whole number." */
function sentence(message: string | undefined): string | undefined {
  return message ? `${message.charAt(0).toUpperCase()}${message.slice(1)}.` : undefined;
}

function AudienceInput({
  info,
  draft,
  error,
  disabled,
  onChange,
}: {
  info: AudienceFieldInfo;
  draft: AudienceDraft;
  error: string | undefined;
  disabled: boolean;
  onChange(next: AudienceDraft): void;
}) {
  const { field, label, hint, input } = info;
  if (field === "acceptsMarketing") {
    return (
      <FormField label={label} hint={hint}>
        {(a11y) => (
          <Select
            {...a11y}
            value={draft.acceptsMarketing}
            disabled={disabled}
            onChange={(event) =>
              onChange({
                ...draft,
                acceptsMarketing: event.target.value as AudienceDraft["acceptsMarketing"],
              })
            }
          >
            <option value="any">Either</option>
            <option value="yes">Yes</option>
            <option value="no">No</option>
          </Select>
        )}
      </FormField>
    );
  }
  const value = draft[field];
  return (
    <FormField label={label} hint={hint} error={error} optional>
      {(a11y) => (
        <Input
          {...a11y}
          type={input === "tags" ? "text" : "number"}
          inputMode={input === "whole-number" ? "numeric" : input === "amount" ? "decimal" : undefined}
          min={input === "tags" ? undefined : field === "createdWithinDays" ? 1 : 0}
          step={input === "amount" ? "0.01" : input === "whole-number" ? 1 : undefined}
          placeholder={input === "tags" ? "vip, wholesale" : undefined}
          value={value}
          disabled={disabled}
          onChange={(event) => onChange({ ...draft, [field]: event.target.value })}
        />
      )}
    </FormField>
  );
}
