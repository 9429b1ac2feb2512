import { config } from "../config/config";

/**
 * The security headers every reply carries (SPEC §2 "Trust at the edges"): next.config.ts sends
 * them on what Next.js answers, and the production server's direct routes (server/direct-routes.ts)
 * on theirs, from this one list.
 *
 * The CSP allows inline scripts: Next.js inlines its bootstrap and the RSC payload in every page,
 * and nonces would make every page dynamic. Inline styles too (React Flow and CodeMirror position
 * nodes with `style`). `'unsafe-eval'` only under `next dev`, whose hot reloading needs it; a
 * production build does not. Nothing loads from another origin: the admin works offline.
 *
 * HSTS is not here: it only means something over https, which the server decides per request
 * (`hstsHeader`).
 */
export interface SecurityHeader {
  key: string;
  value: string;
}

export function contentSecurityPolicy(dev = config().NODE_ENV === "development"): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'unsafe-inline'${dev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    `connect-src 'self'${dev ? " ws: wss:" : ""}`,
    "worker-src 'self' blob:",
    "frame-ancestors 'none'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
  ].join("; ");
}

export function securityHeaders(dev = config().NODE_ENV === "development"): SecurityHeader[] {
  return [
    { key: "Content-Security-Policy", value: contentSecurityPolicy(dev) },
    { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
    { key: "X-Content-Type-Options", value: "nosniff" },
    { key: "X-Frame-Options", value: "DENY" },
  ];
}

/** Sent only on replies to https requests: a browser remembers to use https for a year. */
export const hstsHeader: SecurityHeader = {
  key: "Strict-Transport-Security",
  value: "max-age=31536000; includeSubDomains",
};
