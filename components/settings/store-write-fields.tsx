"use client";

import { useId } from "react";
import { Input, Label } from "@/components/ui/form";
import type { Issue } from "@/lib/errors";
import type { Platform } from "@/lib/connections/platforms";

/**
 * An action's issues as one sentence per field of `fields`, without the "field: " the message
 * starts with; a field may also be named under `under` (`writes.adminToken`). Both store forms
 * show their errors this way.
 */
export function issuesByField<F extends string>(
  issues: readonly Issue[] | undefined,
  fields: readonly F[],
  under?: string,
): Partial<Record<F, string>> {
  const byField: Partial<Record<F, string>> = {};
  for (const field of fields) {
    const named = under ? [field, `${under}.${field}`] : [field];
    const message = issues
      ?.find((i) => named.includes(i.path ?? ""))
      ?.message.replace(new RegExp(`^(${under ? `${under}\\.` : ""})?${field}: `), "");
    if (message) byField[field] = message;
  }
  return byField;
}

/**
 * The two fields that let Tillflow write back to a store: the shop's domain (Shopify) or the
 * store's address (WooCommerce), and the Admin API token or REST key, each with its error.
 * Connecting a store and adding a key to a connection later both ask for them.
 */
export function StoreWriteFields({
  platform,
  address,
  onAddress,
  writeKey,
  onWriteKey,
  errors,
  hintId,
  keyLabel,
}: {
  platform: Platform;
  address: string;
  onAddress: (value: string) => void;
  writeKey: string;
  onWriteKey: (value: string) => void;
  errors: { address?: string; key?: string };
  /** The hint under both fields, which the key field is described by. */
  hintId: string;
  keyLabel: string;
}) {
  const ids = { address: useId(), key: useId() };
  const shopify = platform === "shopify";
  return (
    <>
      <div>
        <Label htmlFor={ids.address}>{shopify ? "Shop domain" : "Store address"}</Label>
        <Input
          id={ids.address}
          autoComplete="off"
          spellCheck={false}
          placeholder={shopify ? "my-store.myshopify.com" : "https://shop.example.com"}
          value={address}
          onChange={(e) => onAddress(e.target.value)}
          aria-invalid={errors.address ? true : undefined}
          aria-describedby={errors.address ? `${ids.address}-error` : undefined}
          className="mt-1.5"
        />
        {errors.address && (
          <p id={`${ids.address}-error`} className="mt-1 text-xs text-red-700">
            {errors.address}
          </p>
        )}
      </div>
      <div>
        <Label htmlFor={ids.key}>{keyLabel}</Label>
        <Input
          id={ids.key}
          type="password"
          autoComplete="off"
          spellCheck={false}
          placeholder={shopify ? "shpat_…" : "ck_…:cs_…"}
          value={writeKey}
          onChange={(e) => onWriteKey(e.target.value)}
          aria-invalid={errors.key ? true : undefined}
          aria-describedby={`${hintId}${errors.key ? ` ${ids.key}-error` : ""}`}
          className="mt-1.5 font-mono"
        />
        {errors.key && (
          <p id={`${ids.key}-error`} className="mt-1 text-xs text-red-700">
            {errors.key}
          </p>
        )}
      </div>
    </>
  );
}
