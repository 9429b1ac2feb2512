import { hostRefusal, typedHost } from "@/lib/credentials/hosts";
import { KIND_LABELS, masked, plainSecretHeaders, type CredentialKind } from "@/lib/credentials/kinds";

/**
 * How a step chooses a credential (SPEC §2 "Credentials"): its slot, registered with its form
 * (`<step>/forms.ts`: `auth: {credentialId}` on Send HTTP request, `secretCredentialId` on Webhook
 * received, `credentialId` on Post to Slack and the store actions), and what the picker says.
 * Pure and browser-safe; the editor gets the shop's credentials without their values.
 */

/** A shop's credential as the editor sees it: never its value. */
export interface CredentialOption {
  id: string;
  name: string;
  kind: CredentialKind;
  last4: string;
  /** The hosts it may be sent to (absent: not known to this page). */
  allowedHosts?: string[];
}

export interface CredentialSlot {
  label: string;
  hint: string;
  /** The kinds this step can use. */
  kinds: readonly CredentialKind[];
  /** The step cannot do without one (Post to Slack): no "None" to choose, and its error shows here. */
  required?: boolean;
  /** Where its credentials are made, when not Settings → Credentials; and what it says while there is none. */
  manage?: { href: string; label: string; empty: string };
  /** Params the picker stands for, which the generic form does not show. */
  params: readonly string[];
  read(params: Record<string, unknown>): string;
  /** The params with `id` chosen (`chosen`: its credential, when the page knows it), or with none when `id` is "". */
  write(params: Record<string, unknown>, id: string, chosen?: CredentialOption): Record<string, unknown>;
}

/** The params without the named ones. */
export function without(params: Record<string, unknown>, ...names: string[]): Record<string, unknown> {
  const next = { ...params };
  for (const name of names) delete next[name];
  return next;
}

/** A param that holds a credential's id as a string, or "" when it holds none. */
export function idParam(params: Record<string, unknown>, name: string): string {
  const value = params[name];
  return typeof value === "string" ? value : "";
}

/** "Warehouse API (Bearer token, …1234)". */
export function credentialLabel(credential: CredentialOption): string {
  return `${credential.name} (${KIND_LABELS[credential.kind].label}, ${masked(credential.last4)})`;
}

/** The host an HTTP step's URL names as typed, or null when it has none or it is a `{token}`. */
export function stepHost(params: Record<string, unknown>): string | null {
  return typedHost(params.url);
}

/**
 * What the picker says when the chosen credential may not go to the step's host (the run, dry run
 * and Run now refuse it with the same sentence), or null.
 */
export function hostWarning(
  params: Record<string, unknown>,
  chosen: CredentialOption | undefined,
): string | null {
  const host = stepHost(params);
  if (!chosen?.allowedHosts || !host) return null;
  return hostRefusal({ name: chosen.name, allowedHosts: chosen.allowedHosts }, host);
}

/** Where to add a credential from a step: Settings → Credentials, proposing the step's host. */
export function addCredentialHref(base: string, params: Record<string, unknown>): string {
  const host = stepHost(params);
  return host ? `${base}?host=${encodeURIComponent(host)}` : base;
}

/** The credentials a slot offers, in the order given (the store lists them by name). */
export function optionsFor(
  slot: CredentialSlot,
  credentials: readonly CredentialOption[],
): CredentialOption[] {
  return credentials.filter((credential) => slot.kinds.includes(credential.kind));
}

/**
 * What the headers field says about headers a save will move into a credential, or null. When
 * the step already sends a credential the save refuses them instead, so it says that.
 */
export function secretHeadersNote(params: Record<string, unknown>): string | null {
  const names = plainSecretHeaders(params.headers).map(([name]) => name);
  if (names.length === 0) return null;
  const list = names.join(", ");
  if (params.auth !== undefined)
    return `${list}: this step already sends a credential, so ${names.length === 1 ? "this header" : "these headers"} cannot be saved as well. Put ${names.length === 1 ? "it" : "them"} in that credential, or remove ${names.length === 1 ? "it" : "them"}.`;
  return names.length === 1
    ? `${list}: this header will be stored as a credential when you save.`
    : `${list}: these headers will be stored as a credential when you save.`;
}
