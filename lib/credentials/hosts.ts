import { z } from "zod";
import { HTTP_AUTH_KINDS, type CredentialKind } from "./kinds";

/**
 * Where a credential may be sent (issue 47, "Credentials know where they may go"). Browser-safe
 * and pure: the settings form, the API and the engine read the same rules.
 *
 * Terminology:
 * - an *allowed host* is a lower-cased host name or address: exact (`api.example.com`,
 *   `127.0.0.1`, `::1`), or a *wildcard* `*.example.com` that matches the subdomains of
 *   `example.com` at any depth (`a.example.com`, `a.b.example.com`) and never `example.com` itself;
 * - a credential's *list* is its `allowedHosts`; empty means nowhere, until an admin sets them.
 *
 * Ports and schemes are not part of a host: `api.example.com` allows it on any port, over http or
 * https (the outbound guard still decides which addresses may be called at all).
 */

/** At most this many hosts per credential. */
export const MAX_ALLOWED_HOSTS = 20;

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;

/** A host as a URL names it, without IPv6 brackets or a trailing dot, lower-cased. */
export function bareHost(hostname: string): string {
  return hostname
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, "$1")
    .replace(/\.$/, "");
}

/** The host of a URL as an allowed host names it, or null when the text is not an http(s) URL. */
export function hostOfUrl(text: string): string | null {
  try {
    const url = new URL(text.trim());
    if (url.protocol !== "http:" && url.protocol !== "https:") return null;
    return url.hostname ? bareHost(url.hostname) : null;
  } catch {
    return null;
  }
}

/**
 * The host a step's URL names as typed, or null when it has none or its host is filled in per run
 * (a `{token}` in the host; one in the path or query leaves the host known).
 */
export function typedHost(url: unknown): string | null {
  if (typeof url !== "string") return null;
  const host = hostOfUrl(url);
  return host && !/[{}]/.test(host) ? host : null;
}

/** Why `entry` cannot be an allowed host, or null. `entry` is already trimmed and lower-cased. */
export function allowedHostProblem(entry: string): string | null {
  if (entry === "") return "Enter a host, such as api.example.com.";
  if (/[/:?#@\s]/.test(entry) && !isIpv6(entry))
    return `'${entry}' is not a host: write the host alone (api.example.com), without https:// or a path.`;
  if (isIpv6(entry) || IPV4.test(entry)) return null;
  const name = entry.startsWith("*.") ? entry.slice(2) : entry;
  if (name.includes("*"))
    return `'${entry}' is not a host: a wildcard is only '*.' before a domain, as in *.example.com.`;
  const labels = name.split(".");
  if (entry.startsWith("*.") && labels.length < 2)
    return `'${entry}' is too wide: a wildcard needs a domain with a dot, as in *.example.com.`;
  if (!labels.every((label) => LABEL.test(label)))
    return `'${entry}' is not a host name (letters, digits, hyphens and dots, as in api.example.com).`;
  return null;
}

function isIpv6(entry: string): boolean {
  return entry.includes(":") && /^[0-9a-f:.]+$/.test(entry);
}

/** One allowed host as typed: trimmed, lower-cased, brackets and a trailing dot dropped, checked. */
export const allowedHost = z
  .string()
  .transform((text) => bareHost(text))
  .superRefine((entry, ctx) => {
    const problem = allowedHostProblem(entry);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });

/** A credential's list as typed: each host checked, duplicates dropped, at most 20. */
export const allowedHostsInput = z
  .array(allowedHost)
  .max(MAX_ALLOWED_HOSTS, `A credential can name at most ${MAX_ALLOWED_HOSTS} hosts.`)
  .transform((hosts) => [...new Set(hosts)]);

/** Whether the kind is sent by an HTTP step, so it needs at least one allowed host. */
export function needsHosts(kind: CredentialKind): boolean {
  return (HTTP_AUTH_KINDS as readonly CredentialKind[]).includes(kind);
}

/** Whether `host` (as a URL names it) is in `list` (exact, or under a wildcard). */
export function hostAllowed(list: readonly string[], host: string): boolean {
  const bare = bareHost(host);
  return list.some((entry) =>
    entry.startsWith("*.") ? bare.endsWith(entry.slice(1)) && bare.length > entry.length - 1 : entry === bare,
  );
}

/** "it may only be sent to a.example.com, b.example.com", or "it may be sent to no host yet". */
export function whereItMayGo(list: readonly string[]): string {
  return list.length === 0 ? "it may be sent to no host yet" : `it may only be sent to ${list.join(", ")}`;
}

/**
 * The sentence that refuses to send `credentialName` to `host`, or null when its list allows it.
 * `redirect`: the host is where an allowed host redirected to.
 */
export function hostRefusal(
  credential: { name: string; allowedHosts: readonly string[] },
  host: string,
  redirect?: { from: string },
): string | null {
  if (hostAllowed(credential.allowedHosts, host)) return null;
  const bare = bareHost(host);
  const allowed = `${whereItMayGo(credential.allowedHosts)}; an admin can add hosts in Settings → Credentials.`;
  return redirect
    ? `Refused to follow ${redirect.from}'s redirect to ${bare} with the credential '${credential.name}': ${allowed}`
    : `Refused to send the credential '${credential.name}' to ${bare}: ${allowed}`;
}
