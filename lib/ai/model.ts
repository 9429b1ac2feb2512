import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import {
  APICallError,
  generateText,
  jsonSchema,
  NoObjectGeneratedError,
  Output,
  type ModelMessage,
} from "ai";
import type { z } from "zod";
import { AppError } from "@/lib/errors";
import { config } from "@/lib/config/config";
import type { Config } from "@/lib/config/env";
import { log } from "@/lib/log/logger";

/**
 * The shop's model, shared by the AI builder (`automations/ai/`) and the AI step
 * (`automations/nodes/ai/ai.execute.ts`): any OpenAI-compatible chat-completions endpoint
 * (`POST {AI_BASE_URL}/chat/completions`), through the Vercel AI SDK. Server-only. Read from the
 * environment at each call, so a server picks up a change without a rebuild. The endpoint is the
 * operator's, so it is called directly, not through the outbound guard (lib/net) that merchants'
 * URLs go through. The key is sent, never logged or returned.
 *
 * Every failure of the provider becomes one sentence a merchant can act on: 503 when it is not set
 * up or is rate limiting, 504 when it does not answer in time, 502 for anything else it does
 * wrong (an error status, an answer that is not JSON). Never a 500. `ModelError.transient` says
 * whether trying again later may help (429, 5xx, no answer), for the AI step's retries.
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

/** The variables `aiConfig` reads (lib/config/env.ts). */
export type AiSettings = Pick<
  Config,
  "AI_BASE_URL" | "AI_MODEL" | "AI_API_KEY" | "AI_TIMEOUT_MS" | "AI_STRUCTURED_OUTPUTS"
>;

/** The configured provider, or null when `AI_BASE_URL` or `AI_MODEL` is not set. */
export function aiConfig(settings: AiSettings = config()): AiConfig | null {
  const baseURL = settings.AI_BASE_URL?.trim();
  const model = settings.AI_MODEL?.trim();
  if (!baseURL || !model) return null;
  return {
    baseURL: baseURL.replace(/\/+$/, ""),
    apiKey: settings.AI_API_KEY?.trim() || undefined,
    model,
    timeoutMs: settings.AI_TIMEOUT_MS,
    structuredOutputs: settings.AI_STRUCTURED_OUTPUTS,
  };
}

/** Who is asking, for the sentences: the AI builder (the default) or the AI step. */
export interface Asker {
  /** The server log's prefix: "AI builder". */
  log: string;
  /** What a merchant can do about a provider that is set up wrongly: the settings are the operator's. */
  askAdmin: string;
}

export const BUILDER: Asker = {
  log: "AI builder",
  askAdmin: "ask your administrator to check the AI builder's settings",
};

/** A provider failure as a sentence, with whether trying again later may succeed. */
export class ModelError extends AppError {
  constructor(
    status: 502 | 503 | 504,
    code: "provider_error" | "unavailable" | "timeout",
    message: string,
    readonly transient: boolean,
    issues?: { message: string }[],
  ) {
    super(status, code, message, issues);
  }
}

/**
 * The operator's side of a provider failure (which URL, which setting), for the server's log: the
 * merchant's sentence never names the endpoint, the key or the environment.
 */
function logForOperator(asker: Asker, detail: string): void {
  log().warn(`${asker.log}: ${detail}`);
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
export function providerError(
  error: unknown,
  config: AiConfig,
  timedOut: boolean,
  asker: Asker = BUILDER,
): ModelError {
  const askAdmin = asker.askAdmin;
  if (
    timedOut ||
    (error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError"))
  ) {
    logForOperator(asker, `${config.baseURL} gave no answer within AI_TIMEOUT_MS (${config.timeoutMs} ms).`);
    return new ModelError(
      504,
      "timeout",
      `The AI model did not answer within ${seconds(config.timeoutMs)}; try again, or ask your administrator to allow it longer.`,
      true,
    );
  }
  if (APICallError.isInstance(error)) {
    const status = error.statusCode;
    if (status === 429)
      return new ModelError(
        503,
        "unavailable",
        "The AI model provider is rate limiting us; try again in a minute.",
        true,
      );
    if (status === 401 || status === 403) {
      logForOperator(asker, `${config.baseURL} refused AI_API_KEY (HTTP ${status}).`);
      return new ModelError(
        502,
        "provider_error",
        `The AI model provider refused our key; ${askAdmin}.`,
        false,
      );
    }
    if (status === 404) {
      logForOperator(asker, `${config.baseURL} does not know AI_MODEL '${config.model}' (HTTP 404).`);
      return new ModelError(
        502,
        "provider_error",
        `The AI model provider does not know the model it was set up with; ${askAdmin}.`,
        false,
      );
    }
    if (status === undefined) {
      logForOperator(asker, `${config.baseURL} (AI_BASE_URL) could not be reached: ${error.message}`);
      return new ModelError(
        502,
        "provider_error",
        `The AI model provider could not be reached; try again, or ${askAdmin}.`,
        true,
      );
    }
    return new ModelError(
      502,
      "provider_error",
      `The AI model provider answered with an error (HTTP ${status}); try again.`,
      status === 408 || status >= 500,
    );
  }
  return new ModelError(502, "provider_error", "The AI model provider failed to answer; try again.", true);
}

const NOT_JSON = new ModelError(
  502,
  "provider_error",
  "The AI model answered with something that is not a JSON flow; try again, or use a model that follows JSON instructions.",
  false,
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
  options: { asker?: Asker; name?: string; notJson?: ModelError } = {},
): Promise<{ value: unknown; text: string }> {
  const name = options.name ?? "FlowSpec";
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
            name,
          })
        : Output.json({ name }),
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
      throw options.notJson ?? NOT_JSON;
    }
    throw providerError(error, config, signal.aborted, options.asker);
  }
}

/**
 * One structured question: `prompt` with `instructions`, answered as a JSON object that `schema`
 * accepts (its JSON Schema goes in the response format). An answer that is not JSON, or that the
 * schema refuses, is a `ModelError` whose sentence says what came back (`refused` words it).
 */
export async function askForObject<S extends z.ZodType>(
  config: AiConfig,
  question: {
    instructions: string;
    prompt: string;
    schema: S;
    /** The JSON Schema of the answer (`z.toJSONSchema(schema)` where it is representable). */
    jsonSchema: Record<string, unknown>;
    name: string;
    asker: Asker;
    refused(answer: unknown, error: z.ZodError): string;
  },
): Promise<{ value: z.infer<S>; text: string }> {
  const answer = await askModel(
    config,
    question.instructions,
    [{ role: "user", content: question.prompt }],
    question.jsonSchema,
    {
      asker: question.asker,
      name: question.name,
      notJson: new ModelError(
        502,
        "provider_error",
        "The AI model answered with something that is not JSON; try again, or use a model that follows JSON instructions.",
        false,
      ),
    },
  );
  const parsed = question.schema.safeParse(answer.value);
  if (!parsed.success)
    throw new ModelError(502, "provider_error", question.refused(answer.value, parsed.error), false);
  return { value: parsed.data as z.infer<S>, text: answer.text };
}
