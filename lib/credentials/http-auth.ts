import { headerLines, type CredentialKind } from "./kinds";

/** The headers an HTTP request carries for a credential of an HTTP kind. */
export function authHeaders(kind: CredentialKind, value: string): Record<string, string> {
  switch (kind) {
    case "http_header":
      return Object.fromEntries(headerLines(value));
    case "bearer":
      return { authorization: `Bearer ${value.trim()}` };
    case "basic":
      return { authorization: `Basic ${Buffer.from(value.trim()).toString("base64")}` };
    default:
      return {};
  }
}
