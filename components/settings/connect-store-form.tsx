"use client";

import { useId, useState, useTransition, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { FieldHint, Input, Label, Select } from "@/components/ui/form";
import { Notice } from "@/components/ui/notice";
import { createConnectionAction } from "@/lib/actions/connections/create-connection";
import { ConnectionUrl } from "./connection-url";
import { PLATFORM_LABELS, PLATFORMS, type Platform } from "@/lib/connections/platforms";

const isPlatform = (value: string): value is Platform => (PLATFORMS as readonly string[]).includes(value);

/** Editors and admins: pick the platform, name the store, paste its webhook secret once. */
export function ConnectStoreForm() {
  const [platform, setPlatform] = useState<Platform>("shopify");
  const [name, setName] = useState("");
  const [secret, setSecret] = useState("");
  const [errors, setErrors] = useState<{ name?: string; secret?: string; form?: string }>({});
  const [made, setMade] = useState<{ name: string; url: string; platform: Platform } | null>(null);
  const [pending, startTransition] = useTransition();
  const ids = { platform: useId(), name: useId(), secret: useId(), secretHint: useId() };
  const label = PLATFORM_LABELS[platform];

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setErrors({});
    setMade(null);
    startTransition(async () => {
      const result = await createConnectionAction({ platform, name, secret });
      if (!result.ok) {
        const on = (field: string) =>
          result.issues?.find((i) => i.path === field)?.message.replace(new RegExp(`^${field}: `), "");
        const fieldErrors = { name: on("name"), secret: on("secret") };
        setErrors(fieldErrors.name || fieldErrors.secret ? fieldErrors : { form: result.error });
        return;
      }
      // The secret leaves the page as soon as it is stored.
      setSecret("");
      setName("");
      setMade({ name: result.data.name, url: result.data.url, platform: result.data.platform });
    });
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
              {label.secretHint} Tillflow checks every delivery’s signature with it; nobody can read it back.
            </FieldHint>
            {errors.secret && (
              <p id={`${ids.secret}-error`} className="mt-1 text-xs text-red-700">
                {errors.secret}
              </p>
            )}
          </div>
          <div className="sm:col-span-2">
            <Button type="submit" variant="primary" pending={pending}>
              Connect {label.label}
            </Button>
          </div>
        </form>
        {errors.form && <Notice tone="error">{errors.form}</Notice>}
        {made && (
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
