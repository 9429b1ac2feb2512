import { HTTP_AUTH_KINDS } from "@/lib/credentials/kinds";
import { httpRequest } from "@/lib/automations/nodes/http-request/http-request";
import { secretHeadersNote, without } from "../credential-options";
import type { StepForm } from "../step-form";

/** Send HTTP request: the generic form, its credential (`auth`), a note on secret headers. */
export const HTTP_REQUEST_FORMS: readonly StepForm[] = [
  {
    type: httpRequest.type,
    credential: {
      label: "Credential",
      hint: "Its headers are sent with the request; the value stays in Settings → Credentials.",
      kinds: HTTP_AUTH_KINDS,
      params: ["auth"],
      read: (params) => {
        const auth = params.auth;
        return typeof auth === "object" &&
          auth !== null &&
          "credentialId" in auth &&
          typeof auth.credentialId === "string"
          ? auth.credentialId
          : "";
      },
      write: (params, id) => (id ? { ...params, auth: { credentialId: id } } : without(params, "auth")),
    },
    paramNote: (param, params) => (param === "headers" ? secretHeadersNote(params) : null),
  },
];
