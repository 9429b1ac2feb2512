"use client";

import { useState } from "react";
import { zoneCity } from "@/lib/time/zone-options";
import { AudienceConfig } from "./audience-config";
import { DstConfig } from "../dst-config";
import { FormError } from "../field";
import type { ConfigFormProps } from "../form-props";
import { withParam } from "../raw-values";
import { ScheduleWhen } from "./schedule-when";
import { ZonePicker } from "../zone-picker";

/**
 * `auto.trigger.schedule {cron, timezone, audience?, dst?}` as a merchant sets it: when, as a
 * sentence (or cron, in the advanced view); the zone those times are read in (the shop's for a new
 * trigger); what happens when clocks change (only when a time falls in a skipped or repeated hour);
 * and who each fire runs for. The next fire times and the audience's live count are
 * the preview's, under the form (`schedule-preview.tsx`).
 */
export function ScheduleConfig({
  params,
  errors,
  shopTimeZone = "UTC",
  disabled,
  onChange,
}: ConfigFormProps) {
  const cron = typeof params.cron === "string" ? params.cron : "";
  const [zone, setZone] = useState(() => (typeof params.timezone === "string" ? params.timezone : ""));
  const place = zoneCity(zone || shopTimeZone);

  return (
    <div className="space-y-5">
      <FormError>{errors[""]}</FormError>
      <ScheduleWhen
        cron={cron}
        error={errors.cron}
        place={place}
        disabled={disabled}
        onCron={(next) => onChange(withParam(params, "cron", next))}
      />
      <ZonePicker
        value={zone}
        shopTimeZone={shopTimeZone}
        error={errors.timezone}
        disabled={disabled}
        hint="The times above are read on this zone's clock."
        onChange={(next) => {
          setZone(next);
          onChange(withParam(params, "timezone", next));
        }}
      />
      <DstConfig
        cron={cron}
        timezone={zone || shopTimeZone}
        value={params.dst}
        error={errors.dst}
        disabled={disabled}
        onDst={(next) => onChange(withParam(params, "dst", next))}
      />
      <AudienceConfig
        audience={params.audience}
        error={errors.audience}
        disabled={disabled}
        onAudience={(next) => onChange(withParam(params, "audience", next))}
      />
    </div>
  );
}
