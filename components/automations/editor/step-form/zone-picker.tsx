"use client";

import { useId, useMemo, useState } from "react";
import { Button } from "@/components/ui/button";
import { Input, Select } from "@/components/ui/form";
import { searchZones, zoneLabel, zoneOptions } from "@/lib/time/zone-options";
import { FormField } from "./field";

export interface ZonePickerProps {
  /** The zone the params hold ("Europe/Paris"). */
  value: string;
  /** The shop's zone: what a new step starts on, offered back with one click. */
  shopTimeZone: string;
  error: string | undefined;
  disabled: boolean;
  /** What the zone is for, under the field. */
  hint?: string;
  onChange(zone: string): void;
}

/**
 * "Time zone": every IANA zone, labelled by city and offset ("Paris (Europe) · UTC+01:00"),
 * narrowed by a search box (city, region or offset). The saved zone always stays in the list.
 */
export function ZonePicker({ value, shopTimeZone, error, disabled, hint, onChange }: ZonePickerProps) {
  const searchId = useId();
  const [query, setQuery] = useState("");
  const all = useMemo(() => zoneOptions(), []);
  const shown = useMemo(() => searchZones(all, query, value), [all, query, value]);
  const matches = shown.length - (value ? 1 : 0);
  const shopLabel = zoneLabel(shopTimeZone, new Date());

  return (
    <FormField
      label="Time zone"
      param="timezone"
      error={error}
      hint={[hint, value === shopTimeZone ? "This is the shop's zone." : `The shop's zone is ${shopLabel}.`]
        .filter(Boolean)
        .join(" ")}
    >
      {(a11y) => (
        <div className="space-y-2">
          <label htmlFor={searchId} className="sr-only">
            Search time zones
          </label>
          <Input
            id={searchId}
            type="search"
            placeholder="Search by city or offset, such as Tokyo or UTC+09"
            autoComplete="off"
            spellCheck={false}
            controlSize="sm"
            value={query}
            disabled={disabled}
            onChange={(event) => setQuery(event.target.value)}
          />
          <Select
            {...a11y}
            value={value}
            disabled={disabled}
            onChange={(event) => {
              setQuery("");
              onChange(event.target.value);
            }}
          >
            {!value && (
              <option value="" disabled>
                Choose a time zone…
              </option>
            )}
            {shown.map((option) => (
              <option key={option.zone} value={option.zone}>
                {option.label}
              </option>
            ))}
          </Select>
          {query.trim() && (
            <p className="text-xs text-zinc-600" role="status">
              {matches === 0
                ? `No time zone matches “${query.trim()}”.`
                : `${matches === 1 ? "1 zone matches" : `${matches} zones match`}; pick one from the list.`}
            </p>
          )}
          {value !== shopTimeZone && (
            <Button
              size="sm"
              variant="secondary"
              disabled={disabled}
              onClick={() => {
                setQuery("");
                onChange(shopTimeZone);
              }}
            >
              Use the shop&apos;s zone
            </Button>
          )}
        </div>
      )}
    </FormField>
  );
}
