"use client";

import { useId, useMemo, useState } from "react";
import { Input, Select } from "@/components/ui/form";
import { searchEventTypes } from "@/lib/automations/nodes/timing/event-types";
import { FormField } from "../field";

/**
 * "Event": the event types the shop records, by name ("Order fulfilled"), narrowed by a search
 * box. The chosen type always stays in the list, even one the list does not know.
 */
export function EventTypePicker({
  value,
  error,
  disabled,
  onChange,
}: {
  value: string;
  error: string | undefined;
  disabled: boolean;
  onChange(type: string): void;
}) {
  const searchId = useId();
  const [query, setQuery] = useState("");
  const shown = useMemo(() => searchEventTypes(query, value), [query, value]);
  const matches = shown.length - (value ? 1 : 0);

  return (
    <FormField label="Event" param="event" error={error} hint="The run carries on when this happens.">
      {(a11y) => (
        <div className="space-y-2">
          <label htmlFor={searchId} className="sr-only">
            Search events
          </label>
          <Input
            id={searchId}
            type="search"
            placeholder="Search events, such as fulfilled or webhook"
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
                Choose an event…
              </option>
            )}
            {shown.map((option) => (
              <option key={option.type} value={option.type}>
                {option.label}
              </option>
            ))}
          </Select>
          {query.trim() && (
            <p className="text-xs text-zinc-600" role="status">
              {matches <= 0
                ? `No event matches “${query.trim()}”.`
                : `${matches === 1 ? "1 event matches" : `${matches} events match`}; pick one from the list.`}
            </p>
          )}
        </div>
      )}
    </FormField>
  );
}
