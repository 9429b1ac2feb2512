// `never` lets a handler with any params shape be passed; the test supplies the matching params.
type Handler = (req: Request, context: { params: Promise<never> }) => Promise<Response>;

/** The API's error reply (SPEC §4). */
export interface ErrorReply {
  error: { code: string; message: string; issues?: { path?: string; message: string }[] };
}

/**
 * Calls a Next.js route handler the way the server would, and returns status and parsed JSON.
 * `B` is the shape the test expects; assertions check it.
 */
export async function call<B = ErrorReply>(
  handler: Handler,
  options: {
    method?: string;
    path?: string;
    key?: string;
    body?: unknown;
    rawBody?: string;
    params?: Record<string, string>;
  },
): Promise<{ status: number; body: B }> {
  const headers = new Headers({ "content-type": "application/json" });
  if (options.key) headers.set("authorization", `Bearer ${options.key}`);
  const body = options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  const req = new Request(`http://test.local${options.path ?? "/"}`, {
    method: options.method ?? "GET",
    headers,
    body,
  });
  const res = await handler(req, { params: Promise.resolve(options.params ?? {}) as Promise<never> });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as B };
}
