/**
 * Send HTTP request's type as plain data (no zod, no definition), for what looks for the step in
 * a graph before its definition loads: the editor's autosave (headers typed in that a save turns
 * into a credential) and the Performance report (an HTTP message's row).
 */
export const HTTP_REQUEST_TYPE = "auto.action.http_request" as const;
