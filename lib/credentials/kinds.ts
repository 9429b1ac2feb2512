/**
 * What each kind of credential holds and how an HTTP request carries it (browser-safe: the
 * Settings form and the credential picker read the same words).
 */

export const CREDENTIAL_KINDS = [
  "http_header",
  "bearer",
  "basic",
  "webhook_secret",
  "slack_webhook",
  "shopify",
  "woocommerce",
  "shopify_admin",
  "woocommerce_rest",
] as const;
export type CredentialKind = (typeof CREDENTIAL_KINDS)[number];

/** The kinds an HTTP request step can send (`auth: {credentialId}`). */
export const HTTP_AUTH_KINDS = [
  "http_header",
  "bearer",
  "basic",
] as const satisfies readonly CredentialKind[];

export const KIND_LABELS: Record<CredentialKind, { label: string; hint: string }> = {
  http_header: {
    label: "Header",
    hint: "One header per line, as 'X-Api-Key: value'. Sent with every request that uses it.",
  },
  bearer: { label: "Bearer token", hint: "Sent as 'Authorization: Bearer <token>'." },
  basic: { label: "Username and password", hint: "As 'username:password'; sent as HTTP Basic auth." },
  webhook_secret: {
    label: "Webhook signing secret",
    hint: "Checks that a webhook posted to a flow was signed by the system you gave it to.",
  },
  slack_webhook: {
    label: "Slack incoming webhook",
    hint: "The https://hooks.slack.com/… URL Slack gave you.",
  },
  shopify: { label: "Shopify webhook secret", hint: "From the Shopify admin's Notifications → Webhooks." },
  woocommerce: { label: "WooCommerce webhook secret", hint: "The secret of the WooCommerce webhook." },
  shopify_admin: {
    label: "Shopify Admin API token",
    hint: "The Admin API access token (shpat_…) of the app you made in the Shopify admin; it may only be sent to the shop's own myshopify.com domain.",
  },
  woocommerce_rest: {
    label: "WooCommerce REST API key",
    hint: "The consumer key and secret from WooCommerce → Settings → Advanced → REST API, as 'ck_…:cs_…'; sent over https to the store only.",
  },
};

/** The kinds that write back to a connected store (issue 52), by platform. */
export const STORE_WRITE_KINDS = [
  "shopify_admin",
  "woocommerce_rest",
] as const satisfies readonly CredentialKind[];
export type StoreWriteKind = (typeof STORE_WRITE_KINDS)[number];

const SHOP_DOMAIN = /^[a-z0-9][a-z0-9-]{0,60}\.myshopify\.com$/;

/**
 * A Shopify shop's domain as the merchant may type it (`my-shop`, `my-shop.myshopify.com`,
 * `https://my-shop.myshopify.com/admin`), as `my-shop.myshopify.com`, or null when it is not one.
 */
export function shopDomain(text: string): string | null {
  let host = text.trim().toLowerCase();
  host = host.replace(/^https?:\/\//, "").replace(/[/?#].*$/, "");
  if (!host.includes(".")) host = `${host}.myshopify.com`;
  return SHOP_DOMAIN.test(host) ? host : null;
}

const HEADER_LINE = /^([A-Za-z0-9!#$%&'*+.^_`|~-]+):[ \t]*(\S.*)$/;

/** The `Name: value` lines of an `http_header` credential. */
export function headerLines(value: string): [string, string][] {
  return value
    .split(/\r?\n/)
    .filter((line) => line.trim() !== "")
    .map((line) => {
      const match = HEADER_LINE.exec(line.trim());
      return match ? ([match[1]!, match[2]!.trim()] as [string, string]) : (["", ""] as [string, string]);
    });
}

/** An `http_header` credential's value for these headers: the lines `headerLines` reads back. */
export function headerCredentialValue(headers: [string, string][]): string {
  return headers.map(([name, value]) => `${name}: ${value.trim()}`).join("\n");
}

/** What only the server can say about a value (the browser's form goes without it). */
export interface ValueRules {
  /**
   * Whether a webhook URL may be plain http: only for a host the outbound guard lets the engine
   * call although it is not public (`HTTP_ACTION_ALLOW`, a test's local receiver). Absent: never.
   */
  allowsHttp?(url: URL): boolean;
}

const SLACK_URL_HINT = "Paste the incoming webhook URL Slack gave you (https://hooks.slack.com/…).";

/** Why a Slack incoming webhook URL cannot be stored, or null: any https URL will do. */
function webhookUrlProblem(value: string, rules: ValueRules): string | null {
  const text = value.trim();
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return SLACK_URL_HINT;
  }
  if (/\s/.test(text) || !url.hostname) return SLACK_URL_HINT;
  if (url.protocol === "https:") return null;
  if (url.protocol === "http:")
    return rules.allowsHttp?.(url) ? null : "The webhook URL must start with https:// (Slack's always does).";
  return SLACK_URL_HINT;
}

/** Why `value` cannot be a credential of `kind`, or null. */
export function valueProblem(kind: CredentialKind, value: string, rules: ValueRules = {}): string | null {
  if (value.trim() === "") return "Enter the secret's value.";
  if (value.length > 8_000) return "The value is longer than 8,000 characters.";
  switch (kind) {
    case "http_header": {
      const lines = headerLines(value);
      if (lines.some(([name]) => name === ""))
        return "Write each header on its own line as 'Header-Name: value', for example 'X-Api-Key: abc123'.";
      return lines.length > 10 ? "A header credential holds at most 10 headers." : null;
    }
    case "basic":
      return value.includes(":") ? null : "Write it as 'username:password'.";
    case "bearer":
      return /[\r\n]/.test(value) ? "A token is one line." : null;
    case "slack_webhook":
      return webhookUrlProblem(value, rules);
    case "shopify_admin":
      return /^\S{20,}$/.test(value.trim())
        ? null
        : "Paste the Admin API access token (shpat_…), one word of at least 20 characters.";
    case "woocommerce_rest":
      return /^ck_\w+:cs_\w+$/.test(value.trim())
        ? null
        : "Write the consumer key and secret as 'ck_…:cs_…'.";
    default:
      return /[\r\n]/.test(value) ? "A secret is one line." : null;
  }
}

/**
 * Header names whose values are secrets: such a header typed into a graph with a plain value
 * becomes a credential when the graph is saved.
 */
export function isSecretHeader(name: string): boolean {
  return /authorization|api[-_]?key|apikey|token|secret|password|passwd|cookie|session|signature/i.test(name);
}

const TOKEN = /\{\s*[a-zA-Z][\w.]*\s*(\|[^}]*)?\}/;

/**
 * The headers of an HTTP step that a save moves into a credential: a secret-looking name with a
 * plain value (one with a token is filled in per run, so it is not a stored secret). Shared by the
 * save and the editor's hint, so the hint says exactly what the save will do.
 */
export function plainSecretHeaders(headers: unknown): [string, string][] {
  if (typeof headers !== "object" || headers === null || Array.isArray(headers)) return [];
  return Object.entries(headers).filter(
    (entry): entry is [string, string] =>
      typeof entry[1] === "string" &&
      isSecretHeader(entry[0]) &&
      entry[1].trim() !== "" &&
      !TOKEN.test(entry[1]),
  );
}

/** `…1234`, how a reply shows a secret. */
export function masked(last4: string): string {
  return `…${last4}`;
}
