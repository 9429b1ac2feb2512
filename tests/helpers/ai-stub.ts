import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A stand-in for an OpenAI-compatible model server on 127.0.0.1: answers
 * `POST /v1/chat/completions` with what `answer` returns for each request, in the shape of a chat
 * completion. Every request body is kept, so a test can read the messages the builder sent.
 */

export interface ChatRequest {
  model: string;
  messages: { role: string; content: string | { type: string; text?: string }[] }[];
  response_format?: unknown;
}

/** A reply: the assistant's text, or a raw HTTP status and body, or a delay before either. */
export type StubReply = string | { status: number; body: string } | { delayMs: number; then: StubReply };

export interface StubModel {
  baseURL: string;
  requests: ChatRequest[];
  close(): Promise<void>;
}

/** A chat completion whose assistant message is `content`. */
export function completion(content: string, model = "stub") {
  return {
    id: `chatcmpl-${Math.random().toString(36).slice(2)}`,
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
    usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
  };
}

/** The text of a message, whether sent as a string or as parts. */
export function textOf(message: ChatRequest["messages"][number]): string {
  return typeof message.content === "string"
    ? message.content
    : message.content.map((part) => part.text ?? "").join("");
}

export async function startStubModel(
  answer: (request: ChatRequest, index: number) => StubReply,
  port = 0,
): Promise<StubModel> {
  const requests: ChatRequest[] = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      if (req.method !== "POST" || req.url !== "/v1/chat/completions") {
        res.writeHead(404, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: { message: "not found" } }));
        return;
      }
      const request = JSON.parse(body) as ChatRequest;
      requests.push(request);
      const send = (reply: StubReply): void => {
        if (typeof reply === "string") {
          res.writeHead(200, { "content-type": "application/json" });
          res.end(JSON.stringify(completion(reply, request.model)));
        } else if ("delayMs" in reply) {
          const timer = setTimeout(() => send(reply.then), reply.delayMs);
          res.on("close", () => clearTimeout(timer));
        } else {
          res.writeHead(reply.status, { "content-type": "application/json" });
          res.end(reply.body);
        }
      };
      send(answer(request, requests.length - 1));
    });
  });
  await listenWhenFree(server, port);
  const { port: bound } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${bound}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Listens on `port`; a fixed port another test's stub holds (the browser tests' AI specs share the
 * server's one `AI_BASE_URL` and may run at once on two workers) is waited for, up to a minute.
 */
async function listenWhenFree(server: http.Server, port: number): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      await new Promise<void>((resolve, reject) => {
        server.once("error", reject);
        server.listen(port, "127.0.0.1", () => {
          server.off("error", reject);
          resolve();
        });
      });
      return;
    } catch (error) {
      const busy = (error as NodeJS.ErrnoException).code === "EADDRINUSE";
      if (!busy || port === 0 || Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}
