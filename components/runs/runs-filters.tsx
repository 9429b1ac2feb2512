import Form from "next/form";
import { FilterActions } from "@/components/entities/list-toolbar";
import { Input, Label, Select } from "@/components/ui/form";
import { RUN_STATUS_OPTIONS } from "./run-status";

/** The filters as they appear in the URL (dates are the shop's calendar days). */
export interface RunFilterValues {
  automationId?: string;
  status?: string;
  domain?: string;
  entityId?: string;
  from?: string;
  to?: string;
  /** Whose automations: mine · builtin · all (the shop-wide list only; default mine). */
  platform?: string;
  /** One run by its short id (as the Run column shows it) or its full id. */
  run?: string;
}

const DOMAIN_OPTIONS = [
  "order",
  "customer",
  "cart",
  "product",
  "refund",
  "shipment",
  "invoice",
  "webhook",
  "schedule",
];

/**
 * Filters for run history as a plain GET form (next/form navigates on the client), so they live in
 * the URL, survive reloads and can be shared. Applying drops the page cursor.
 */
export function RunsFilters({
  path,
  values,
  automations,
  timeZone,
}: {
  path: string;
  values: RunFilterValues;
  /** The automation choices; omit on an automation's own Runs tab. */
  automations?: { id: string; name: string }[];
  timeZone: string;
}) {
  const filtered = Object.values(values).some(Boolean);
  return (
    <Form
      action={path}
      className="flex flex-wrap items-end gap-3 border-b border-zinc-200 px-5 py-4"
      role="search"
    >
      {automations && (
        <div className="w-52">
          <Label htmlFor="runs-automation">Automation</Label>
          <Select
            id="runs-automation"
            name="automationId"
            defaultValue={values.automationId ?? ""}
            className="mt-1.5"
          >
            <option value="">All automations</option>
            {automations.map((a) => (
              <option key={a.id} value={a.id}>
                {a.name}
              </option>
            ))}
          </Select>
        </div>
      )}
      {automations && (
        <div className="w-44">
          <Label htmlFor="runs-platform">Made by</Label>
          <Select
            id="runs-platform"
            name="platform"
            defaultValue={values.platform ?? "mine"}
            className="mt-1.5"
          >
            <option value="mine">Mine</option>
            <option value="builtin">Built-in</option>
            <option value="all">All</option>
          </Select>
        </div>
      )}
      <div className="w-48">
        <Label htmlFor="runs-status">Status</Label>
        <Select id="runs-status" name="status" defaultValue={values.status ?? ""} className="mt-1.5">
          <option value="">All statuses</option>
          {RUN_STATUS_OPTIONS.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </Select>
      </div>
      <fieldset className="flex items-end gap-2">
        <legend className="sr-only">Entity</legend>
        <div className="w-32">
          <Label htmlFor="runs-domain">Entity type</Label>
          <Select id="runs-domain" name="domain" defaultValue={values.domain ?? ""} className="mt-1.5">
            <option value="">Any</option>
            {DOMAIN_OPTIONS.map((d) => (
              <option key={d} value={d}>
                {d}
              </option>
            ))}
          </Select>
        </div>
        <div className="w-52">
          <Label htmlFor="runs-entity">Entity id, number or email</Label>
          <Input
            id="runs-entity"
            name="entityId"
            defaultValue={values.entityId}
            placeholder="#1001, email or id"
            aria-describedby="runs-entity-help"
            className="mt-1.5"
          />
          <p id="runs-entity-help" className="sr-only">
            An order number (#1001 or 1001), a customer&apos;s email or name, or a record id.
          </p>
        </div>
      </fieldset>
      <fieldset className="flex items-end gap-2" aria-describedby="runs-dates-zone">
        <legend className="sr-only">Started between</legend>
        <div>
          <Label htmlFor="runs-from">From</Label>
          <Input
            id="runs-from"
            name="from"
            type="date"
            defaultValue={values.from}
            className="mt-1.5 w-40"
            fullWidth={false}
          />
        </div>
        <div>
          <Label htmlFor="runs-to">To</Label>
          <Input
            id="runs-to"
            name="to"
            type="date"
            defaultValue={values.to}
            className="mt-1.5 w-40"
            fullWidth={false}
          />
        </div>
        <p id="runs-dates-zone" className="sr-only">
          Days in the shop&apos;s time zone, {timeZone}; both days included.
        </p>
      </fieldset>
      <div className="w-36">
        <Label htmlFor="runs-run">Run</Label>
        <Input
          id="runs-run"
          name="run"
          defaultValue={values.run}
          placeholder="3fa9c01e"
          autoComplete="off"
          spellCheck={false}
          aria-describedby="runs-run-help"
          className="mt-1.5 font-mono"
        />
        <p id="runs-run-help" className="sr-only">
          A run&apos;s short id as the Run column shows it, or its full id.
        </p>
      </div>
      <FilterActions path={path} filtered={filtered} />
    </Form>
  );
}
