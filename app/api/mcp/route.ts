import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { readBodyText } from "@/lib/api/body";
import { errorResponse, json, MAX_BODY_BYTES, tooLarge } from "@/lib/api/route";
import { resolveCaller } from "@/lib/auth/resolve-caller";
import { AppError } from "@/lib/errors";
import { createMcpServer } from "@/lib/mcp/server";

/**
 * MCP over streamable HTTP (SPEC §4), stateless: each POST carries JSON-RPC and gets its answer
 * as JSON, from a server made for that request's caller. Authenticated with an API key only
 * (`Authorization: Bearer <key>`): an assistant is not a signed-in browser. The caller is known
 * before the body is read, and the body is read as a stream of at most `MAX_BODY_BYTES` (413 the
 * moment it passes: lib/api/body.ts); the transport then parses what was read.
 */
export async function POST(req: Request): Promise<Response> {
  const caller = /^Bearer\s+\S+$/i.test(req.headers.get("authorization") ?? "")
    ? await resolveCaller(req.headers)
    : null;
  if (!caller) {
    return errorResponse(
      new AppError(401, "unauthorized", "Send a Tillflow API key as 'Authorization: Bearer <key>'."),
    );
  }
  let body: string;
  try {
    body = await readBodyText(req, MAX_BODY_BYTES, () => tooLarge(MAX_BODY_BYTES));
  } catch (error) {
    if (error instanceof AppError) return errorResponse(error);
    throw error;
  }
  const read = new Request(req.url, { method: req.method, headers: req.headers, body });
  const server = createMcpServer(caller);
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  await server.connect(transport);
  try {
    return await transport.handleRequest(read);
  } finally {
    // JSON mode answers once every response is ready, so nothing is left to stream.
    await server.close();
  }
}

/** No event stream and no session in stateless mode: say so, as the transport spec allows. */
function notHere(): Response {
  const response = json(
    {
      error: {
        code: "method_not_allowed",
        message:
          "This MCP server is stateless: send JSON-RPC messages with POST. There is no event stream to open (GET) or session to end (DELETE).",
      },
    },
    405,
  );
  response.headers.set("allow", "POST");
  return response;
}

export const GET = notHere;
export const DELETE = notHere;
