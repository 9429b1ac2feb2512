"use client";

import { useId, useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { FieldHint, Input, Label, Select } from "@/components/ui/form";
import { Notice } from "@/components/ui/notice";
import { useServerAction } from "@/components/ui/hooks/use-server-action";
import { createConnectionAction } from "@/lib/actions/connections/create-connection";
import { ConnectionUrl } from "./connection-url";
import { PLATFORM_LABELS, PLATFORMS, type Platform } from "@/lib/connections/platforms";
import { issuesByField, StoreWriteFields } from "./store-write-fields";

type Field = "name" | "secret" | "shopDomain" | "adminToken" | "storeUrl" | "restKey" | "form";
const FIELDS = ["name", "secret", "shopDomain", "adminToken", "storeUrl", "restKey"] as const;

const isPlatform = (value: string): value is Platform => (PLATFORMS as readonly string[]).includes(value);

/** Editors and admins: pick the platform, name the store, paste its webhook secret once. */
export function ConnectStoreForm() {
  const [platform, setPlatform] = useState<Platform>("shopify");
  const [name, setName] = useState("");
  const [secret, setSecret] = useState("");
  // Optional: what lets Tillflow write back to the store (and, for Shopify, make its webhooks).
  const [address, setAddress] = useState("");
  const [writeKey, setWriteKey] = useState("");
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [made, setMade] = useState<{
    name: string;
    url: string;
    platform: Platform;
    subscribed: number | null;
    subscriptionError?: string;
  } | null>(null);
  const createConnection = useServerAction(createConnectionAction);
  const ids = {
    platform: useId(),
    name: useId(),
    secret: useId(),
    secretHint: useId(),
    writeHint: useId(),
  };
  const label = PLATFORM_LABELS[platform];
  const shopify = platform === "shopify";
  const addressField: Field = shopify ? "shopDomain" : "storeUrl";
  const keyField: Field = shopify ? "adminToken" : "restKey";
  const withKey = writeKey.trim() !== "";

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setErrors({});
    setMade(null);
    createConnection.run(
      {
        platform,
        name,
        secret,
        ...(withKey ? { [addressField]: address, [keyField]: writeKey } : {}),
      },
      (result) => {
        if (!result.ok) {
          const fieldErrors = issuesByField(result.issues, FIELDS);
          setErrors(Object.keys(fieldErrors).length > 0 ? fieldErrors : { form: result.error });
          return;
        }
        // The secrets leave the page as soon as they are stored.
        setSecret("");
        setWriteKey("");
        setName("");
        setAddress("");
        const subscriptions = result.data.subscriptions;
        setMade({
          name: result.data.name,
          url: result.data.url,
          platform: result.data.platform,
          subscribed: subscriptions ? subscriptions.items.filter((i) => i.state === "active").length : null,
          ...(subscriptions?.error ? { subscriptionError: subscriptions.error } : {}),
        });
      },
    );
  }

  return (
    <Card>
      <CardHeader
        title="Connect a store"
        description="Your store sends its orders, customers, checkouts, refunds, fulfillments and products here as they change; flows start from them as from any other record."
      />
      <CardBody className="space-y-4">
        <form onSubmit={submit} noValidate className="grid gap-4 sm:grid-cols-2">
          <div>
            <Label htmlFor={ids.platform}>Platform</Label>
            <Select
              id={ids.platform}
              value={platform}
              onChange={(e) => isPlatform(e.target.value) && setPlatform(e.target.value)}
              className="mt-1.5"
            >
              {PLATFORMS.map((p) => (
                <option key={p} value={p}>
                  {PLATFORM_LABELS[p].label}
                </option>
              ))}
            </Select>
          </div>
          <div>
            <Label htmlFor={ids.name}>Name</Label>
            <Input
              id={ids.name}
              required
              maxLength={100}
              autoComplete="off"
              placeholder={platform === "shopify" ? "e.g. my-store.myshopify.com" : "e.g. shop.example.com"}
              value={name}
              onChange={(e) => setName(e.target.value)}
              aria-invalid={errors.name ? true : undefined}
              aria-describedby={errors.name ? `${ids.name}-error` : undefined}
              className="mt-1.5"
            />
            {errors.name && (
              <p id={`${ids.name}-error`} className="mt-1 text-xs text-red-700">
                {errors.name}
              </p>
            )}
          </div>
          <div className="sm:col-span-2">
            <Label htmlFor={ids.secret}>Webhook secret</Label>
            <Input
              id={ids.secret}
              type="password"
              required
              autoComplete="off"
              spellCheck={false}
              value={secret}
              onChange={(e) => setSecret(e.target.value)}
              aria-invalid={errors.secret ? true : undefined}
              aria-describedby={`${ids.secretHint}${errors.secret ? ` ${ids.secret}-error` : ""}`}
              className="mt-1.5 font-mono"
            />
            <FieldHint id={ids.secretHint}>
              {shopify && withKey
                ? "With a token: the API secret key (client secret) of the app you made in the Shopify admin, which signs the webhooks Tillflow creates."
                : label.secretHint}{" "}
              Tillflow checks every delivery’s signature with it; nobody can read it back.
            </FieldHint>
            {errors.secret && (
              <p id={`${ids.secret}-error`} className="mt-1 text-xs text-red-700">
                {errors.secret}
              </p>
            )}
          </div>
          <fieldset className="grid gap-4 rounded-md border border-zinc-200 p-3 sm:col-span-2 sm:grid-cols-2">
            <legend className="px-1 text-sm font-medium text-zinc-800">
              Write back to the store <span className="font-normal text-zinc-600">(optional)</span>
            </legend>
            <StoreWriteFields
              platform={platform}
              address={address}
              onAddress={setAddress}
              writeKey={writeKey}
              onWriteKey={setWriteKey}
              errors={{ address: errors[addressField], key: errors[keyField] }}
              hintId={ids.writeHint}
              keyLabel={shopify ? "Admin API access token" : "REST API key"}
            />
            <FieldHint id={ids.writeHint} className="sm:col-span-2">
              {shopify
                ? "From an app you make in the Shopify admin (Settings → Apps → Develop apps). With it, Tillflow creates the webhooks itself — nothing to paste — and store steps can tag orders, add notes, hold fulfillment and set metafields. It is only ever sent to this shop's myshopify.com domain."
                : "From WooCommerce → Settings → Advanced → REST API (Read/Write), as 'ck_…:cs_…'. With it, store steps can tag orders, add notes and set them on hold. It is only ever sent to this store, over https."}
            </FieldHint>
          </fieldset>
          <div className="sm:col-span-2">
            <Button type="submit" variant="primary" pending={createConnection.pending}>
              Connect {label.label}
            </Button>
          </div>
        </form>
        {errors.form && <Notice tone="error">{errors.form}</Notice>}
        {made && made.subscribed !== null && (
          <Notice tone={made.subscriptionError ? "warning" : "success"}>
            <p>
              Connected “{made.name}”: Tillflow subscribed to {made.subscribed} topics in Shopify, each
              delivering to this connection — nothing to paste.
            </p>
            {made.subscriptionError && <p className="mt-2">{made.subscriptionError} Use Repair below.</p>}
          </Notice>
        )}
        {made && made.subscribed === null && (
          <Notice tone="success">
            <p>
              Connected “{made.name}”. Paste this URL into {PLATFORM_LABELS[made.platform].label}:
            </p>
            <p className="mt-2">
              <ConnectionUrl url={made.url} />
            </p>
            <p className="mt-2">{PLATFORM_LABELS[made.platform].setup}</p>
          </Notice>
        )}
      </CardBody>
    </Card>
  );
}
