"use client";

import { useId, useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { FieldHint, Input, Label, Select } from "@/components/ui/form";
import { formatExact } from "@/components/ui/format";
import { Notice } from "@/components/ui/notice";
import { useServerAction } from "@/components/ui/hooks/use-server-action";
import { updateShopAction } from "@/lib/actions/settings/update-shop";

type Outcome = { tone: "success" | "error"; text: string } | null;

/**
 * The shop's name and time zone. Every time in the admin is shown in that zone (with UTC on
 * hover); a viewer or editor sees the settings without the means to change them.
 */
export function ShopSettingsForm({
  name,
  timezone,
  zones,
  canEdit,
}: {
  name: string;
  timezone: string;
  /** Every IANA zone the server knows, for the list. */
  zones: readonly string[];
  canEdit: boolean;
}) {
  const [zone, setZone] = useState(timezone);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const updateShop = useServerAction(updateShopAction);
  const ids = { name: useId(), zone: useId(), zoneHint: useId() };

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const input = { name: String(data.get("name") ?? ""), timezone: zone };
    setOutcome(null);
    updateShop.run(input, (result) => {
      setOutcome(
        result.ok
          ? { tone: "success", text: `Saved. Times are now shown in ${result.data.timezone}.` }
          : { tone: "error", text: result.error },
      );
    });
  }

  return (
    <Card>
      <CardHeader
        title="Shop"
        description="The shop's name and the time zone every time in the admin is shown in."
      />
      <CardBody>
        <form onSubmit={submit} className="grid gap-4 sm:grid-cols-2">
          <div>
            <Label htmlFor={ids.name}>Shop name</Label>
            <Input
              id={ids.name}
              name="name"
              defaultValue={name}
              required
              maxLength={100}
              disabled={!canEdit}
              className="mt-1.5"
            />
          </div>
          <div>
            <Label htmlFor={ids.zone}>Time zone</Label>
            <Select
              id={ids.zone}
              name="timezone"
              value={zone}
              onChange={(e) => setZone(e.target.value)}
              disabled={!canEdit}
              aria-describedby={ids.zoneHint}
              className="mt-1.5"
            >
              {zones.map((z) => (
                <option key={z} value={z}>
                  {z}
                </option>
              ))}
            </Select>
            <FieldHint id={ids.zoneHint} className="mt-1.5" suppressHydrationWarning>
              Now there: {formatExact(new Date(), zone)}. Schedules and “Wait until” steps keep their own
              zones.
            </FieldHint>
          </div>
          {canEdit ? (
            <div className="flex items-center gap-3 sm:col-span-2">
              <Button type="submit" variant="primary" pending={updateShop.pending}>
                Save
              </Button>
              {outcome && <Notice tone={outcome.tone}>{outcome.text}</Notice>}
            </div>
          ) : (
            <p className="text-sm text-zinc-600 sm:col-span-2">
              Only an admin can change the shop&apos;s settings.
            </p>
          )}
        </form>
      </CardBody>
    </Card>
  );
}
