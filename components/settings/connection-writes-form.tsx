"use client";

import { useId, useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { FieldHint, Input, Label } from "@/components/ui/form";
import { Notice } from "@/components/ui/notice";
import { useServerAction } from "@/components/ui/hooks/use-server-action";
import { setConnectionWritesAction } from "@/lib/actions/connections/set-writes";
import type { Platform } from "@/lib/connections/platforms";
import { issuesByField, StoreWriteFields } from "./store-write-fields";

type Field = "shopDomain" | "adminToken" | "storeUrl" | "restKey" | "secret" | "form";
const FIELDS = ["shopDomain", "adminToken", "storeUrl", "restKey", "secret"] as const;

/**
 * Editors and admins: add an Admin API token (Shopify) or a REST key (WooCommerce) to a store
 * connected without one, or replace it. Tillflow then creates the store's webhooks itself.
 */
export function ConnectionWritesForm({
  id,
  name,
  platform,
  host,
}: {
  id: string;
  name: string;
  platform: Platform;
  /** The store the current key writes to; absent when the connection has none yet. */
  host?: string;
}) {
  const [open, setOpen] = useState(false);
  const [address, setAddress] = useState(host ? (platform === "shopify" ? host : `https://${host}`) : "");
  const [key, setKey] = useState("");
  const [secret, setSecret] = useState("");
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [done, setDone] = useState<{ subscribed: number; of: number; error?: string } | null>(null);
  const setConnectionWrites = useServerAction(setConnectionWritesAction);
  const ids = { form: useId(), secret: useId(), hint: useId() };
  const shopify = platform === "shopify";
  const replacing = host !== undefined;
  const addressField: Field = shopify ? "shopDomain" : "storeUrl";
  const keyField: Field = shopify ? "adminToken" : "restKey";
  const what = shopify ? "Admin API token" : "REST API key";
  const action = replacing ? `Replace the ${what}` : `Add ${shopify ? "an" : "a"} ${what}`;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setErrors({});
    setDone(null);
    setConnectionWrites.run(
      {
        id,
        writes: {
          [addressField]: address,
          [keyField]: key,
          ...(shopify && secret.trim() !== "" ? { secret } : {}),
        },
      },
      (result) => {
        if (!result.ok) {
          const fieldErrors = issuesByField(result.issues, FIELDS, "writes");
          setErrors(Object.keys(fieldErrors).length > 0 ? fieldErrors : { form: result.error });
          return;
        }
        // The secrets leave the page as soon as they are stored.
        setKey("");
        setSecret("");
        const items = result.data.subscriptions?.items ?? [];
        setDone({
          subscribed: items.filter((i) => i.state === "active").length,
          of: items.length,
          ...(result.data.subscriptions?.error ? { error: result.data.subscriptions.error } : {}),
        });
        setOpen(false);
      },
    );
  }

  return (
    <div className="mt-2 space-y-2">
      {done && (
        <Notice tone={done.error ? "warning" : "success"}>
          <p>
            Saved the {what}. Tillflow subscribed to {done.subscribed} of {done.of} topics in{" "}
            {shopify ? "Shopify" : "WooCommerce"}, each delivering to this connection.
            {shopify &&
              !replacing &&
              " Delete the webhooks you made by hand in Settings → Notifications → Webhooks: they are signed with another secret."}
          </p>
          {done.error && <p className="mt-2">{done.error} Use Repair below.</p>}
        </Notice>
      )}
      {!open ? (
        <Button
          size="sm"
          aria-label={`${action} for ${name}`}
          aria-expanded={false}
          aria-controls={ids.form}
          onClick={() => setOpen(true)}
        >
          {action}
        </Button>
      ) : (
        <form
          id={ids.form}
          onSubmit={submit}
          noValidate
          aria-label={`${what} of ${name}`}
          className="grid gap-3 rounded-md border border-zinc-200 p-3 sm:grid-cols-2"
        >
          <StoreWriteFields
            platform={platform}
            address={address}
            onAddress={setAddress}
            writeKey={key}
            onWriteKey={setKey}
            errors={{ address: errors[addressField], key: errors[keyField] }}
            hintId={ids.hint}
            keyLabel={shopify ? "New Admin API access token" : "New REST API key"}
          />
          {shopify && (
            <div className="sm:col-span-2">
              <Label htmlFor={ids.secret}>
                App’s API secret key{" "}
                {replacing && <span className="font-normal text-zinc-600">(only if the app changed)</span>}
              </Label>
              <Input
                id={ids.secret}
                type="password"
                autoComplete="off"
                spellCheck={false}
                value={secret}
                onChange={(e) => setSecret(e.target.value)}
                aria-invalid={errors.secret ? true : undefined}
                aria-describedby={errors.secret ? `${ids.secret}-error` : undefined}
                className="mt-1.5 font-mono"
              />
              {errors.secret && (
                <p id={`${ids.secret}-error`} className="mt-1 text-xs text-red-700">
                  {errors.secret}
                </p>
              )}
            </div>
          )}
          <FieldHint id={ids.hint} className="sm:col-span-2">
            {shopify
              ? "From the app you made in the Shopify admin (Settings → Apps → Develop apps). Shopify signs the webhooks Tillflow creates with the app’s API secret key, which becomes this connection’s secret. The token is only ever sent to this shop’s myshopify.com domain."
              : "From WooCommerce → Settings → Advanced → REST API (Read/Write), as 'ck_…:cs_…'. Tillflow creates the store’s webhooks with this connection’s secret. The key is only ever sent to this store, over https."}{" "}
            Nobody can read it back.
          </FieldHint>
          <div className="flex gap-2 sm:col-span-2">
            <Button type="submit" size="sm" variant="primary" pending={setConnectionWrites.pending}>
              Save the {what}
            </Button>
            <Button size="sm" variant="ghost" onClick={() => setOpen(false)}>
              Cancel
            </Button>
          </div>
          {errors.form && (
            <div className="sm:col-span-2">
              <Notice tone="error">{errors.form}</Notice>
            </div>
          )}
        </form>
      )}
    </div>
  );
}
