import { valueProblem, type CredentialKind } from "@/lib/credentials/kinds";
import { credentialValue, type CredentialValue } from "./credential-value-fields";

const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/;

/** Why the typed value cannot be stored as `kind`, said for the fields the form shows; or null. */
export function typedValueProblem(kind: CredentialKind, value: CredentialValue): string | null {
  if (kind === "http_header") {
    if (value.header.trim() === "") return "Enter the header's name, such as X-Api-Key.";
    if (!HEADER_NAME.test(value.header.trim()))
      return "A header name has letters, digits and dashes only, such as X-Api-Key.";
    if (value.secret.trim() === "") return "Enter the header's value.";
  }
  return valueProblem(kind, credentialValue(kind, value));
}
