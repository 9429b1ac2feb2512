import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import {
  APICallError,
  generateText,
  jsonSchema,
  NoObjectGeneratedError,
  Output,
  type ModelMessage,
} from "ai";
import { AppError } from "@/lib/errors";

/**
 * The model behind the AI builder: any OpenAI-compatible chat-completions endpoint
 * (`POST {AI_BASE_URL}/chat/completions`), through the Vercel AI SDK. Server-only. Read from the
 * environment at each call, so a server picks up a change without a rebuild.
 *
 * Every failure of the provider becomes one sentence a merchant can act on: 503 when it is not set
 * up or is rate limiting, 504 when it does not answer in time, 502 for anything else it does
 * wrong (an error status, an answer that is not JSON). Never a 500.
 */

export interface AiConfig {
  /** `AI_BASE_URL`, e.g. `http://localhost:11434/v1` (Ollama) or `https://api.openai.com/v1`. */
  baseURL: string;
  /** `AI_API_KEY`; local servers need none. */
  apiKey?: string;
  /** `AI_MODEL`, e.g. `llama3.1` or `gpt-4.1-mini`. */
  model: string;
  /** `AI_TIMEOUT_MS`: how long one answer may take. Default 60,000 (60 s). */
  timeoutMs: number;
  /**
   * `AI_STRUCTURED_OUTPUTS`: `json_schema` response format with the FlowSpec schema when true (the
   * default); `json_object` (a plain JSON answer, the schema only in the prompt) when `false`, for
   * servers that do not support `json_schema`. Either way the answer is checked with the FlowSpec.
   */
  structuredOutputs: boolean;
}

export const DEFAULT_TIMEOUT_MS = 60_000;

/** The configured provider, or null when `AI_BASE_URL` or `AI_MODEL` is not set. */
export function aiConfig(env: NodeJS.ProcessEnv = process.env): AiConfig | null {
  const baseURL = env.AI_BASE_URL?.trim();
  const model = env.AI_MODEL?.trim();
  if (!baseURL || !model) return null;
  const timeout = Number(env.AI_TIMEOUT_MS);
  return {
    baseURL: baseURL.replace(/\/+$/, ""),
    apiKey: env.AI_API_KEY?.trim() || undefined,
    model,
    timeoutMs: Number.isFinite(timeout) && timeout > 0 ? timeout : DEFAULT_TIMEOUT_MS,
    structuredOutputs: !/^(false|0|no|off)$/i.test(env.AI_STRUCTURED_OUTPUTS?.trim() ?? ""),
  };
}

export const NOT_CONFIGURED =
  "The AI builder is not set up for this shop yet; ask your administrator to connect an AI model.";

/** What a merchant can do about a provider that is set up wrongly: the settings are the operator's. */
const ASK_ADMIN = "ask your administrator to check the AI builder's settings";

/**
 * The operator's side of a provider failure (which URL, which setting), for the server's log: the
 * merchant's sentence never names the endpoint or the environment.
 */
function logForOperator(detail: string): void {
  console.warn(`AI builder: ${detail}`);
}

function seconds(ms: number): string {
  const s = ms / 1000;
  return `${Number.isInteger(s) ? s : s.toFixed(1)} second${s === 1 ? "" : "s"}`;
}

/** The text of a JSON object in an answer that is not bare JSON (a code fence, a sentence around it). */
export function extractJson(text: string): unknown {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/i.exec(text)?.[1];
  const candidates = [text, fenced, text.slice(text.indexOf("{"), text.lastIndexOf("}") + 1)];
  for (const candidate of candidates) {
    if (!candidate?.trim()) continue;
    try {
      return JSON.parse(candidate) as unknown;
    } catch {
      // Try the next way of reading it.
    }
  }
  return undefined;
}

/** A provider failure as the one sentence the caller gets; the operator's details go to the log. */
export function providerError(error: unknown, config: AiConfig, timedOut: boolean): AppError {
  if (
    timedOut ||
    (error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError"))
  ) {
    logForOperator(`${config.baseURL} gave no answer within AI_TIMEOUT_MS (${config.timeoutMs} ms).`);
    return new AppError(
      504,
      "timeout",
      `The AI model did not answer within ${seconds(config.timeoutMs)}; try again, or ask your administrator to allow it longer.`,
    );
  }
  if (APICallError.isInstance(error)) {
    const status = error.statusCode;
    if (status === 429)
      return new AppError(
        503,
        "unavailable",
        "The AI model provider is rate limiting us; try again in a minute.",
      );
    if (status === 401 || status === 403) {
      logForOperator(`${config.baseURL} refused AI_API_KEY (HTTP ${status}).`);
      return new AppError(502, "provider_error", `The AI model provider refused our key; ${ASK_ADMIN}.`);
    }
    if (status === 404) {
      logForOperator(`${config.baseURL} does not know AI_MODEL '${config.model}' (HTTP 404).`);
      return new AppError(
        502,
        "provider_error",
        `The AI model provider does not know the model it was set up with; ${ASK_ADMIN}.`,
      );
    }
    if (status === undefined) {
      logForOperator(`${config.baseURL} (AI_BASE_URL) could not be reached: ${error.message}`);
      return new AppError(
        502,
        "provider_error",
        `The AI model provider could not be reached; try again, or ${ASK_ADMIN}.`,
      );
    }
    return new AppError(
      502,
      "provider_error",
      `The AI model provider answered with an error (HTTP ${status}); try again.`,
    );
  }
  return new AppError(502, "provider_error", "The AI model provider failed to answer; try again.");
}

const NOT_JSON = new AppError(
  502,
  "provider_error",
  "The AI model answered with something that is not a JSON flow; try again, or use a model that follows JSON instructions.",
);

/**
 * One answer of the model to `messages`, as JSON (not yet checked against the FlowSpec). The
 * response format carries `schema`; the answer's text is parsed here, leniently, so a model that
 * wraps its JSON in a code fence still works.
 */
export async function askModel(
  config: AiConfig,
  instructions: string,
  messages: ModelMessage[],
  schema: Record<string, unknown>,
): Promise<{ value: unknown; text: string }> {
  const provider = createOpenAICompatible({
    name: "tillflow-ai",
    baseURL: config.baseURL,
    apiKey: config.apiKey,
    supportsStructuredOutputs: config.structuredOutputs,
  });
  const signal = AbortSignal.timeout(config.timeoutMs);
  try {
    const result = await generateText({
      model: provider.chatModel(config.model),
      instructions,
      messages,
      // No validation here (`jsonSchema` without one): the builder checks the answer with zod and
      // turns each problem into a sentence for the model. Without structured outputs the request
      // asks for a plain JSON object, and the schema is only in the prompt.
      output: config.structuredOutputs
        ? Output.object({
            schema: jsonSchema<unknown>(schema as Parameters<typeof jsonSchema>[0]),
            name: "FlowSpec",
          })
        : Output.json({ name: "FlowSpec" }),
      // The schema's params are free-form objects, which strict mode refuses.
      providerOptions: { openaiCompatible: { strictJsonSchema: false } },
      // One attempt: a rate limit or an error is reported at once, not retried behind the merchant's back.
      maxRetries: 0,
      abortSignal: signal,
      temperature: 0,
    });
    return { value: result.output, text: result.text };
  } catch (error) {
    if (NoObjectGeneratedError.isInstance(error)) {
      const text = error.text ?? "";
      const value = extractJson(text);
      if (value !== undefined) return { value, text };
      throw NOT_JSON;
    }
    throw providerError(error, config, signal.aborted);
  }
}
