import {
  aiConfig,
  askModel,
  DEFAULT_TIMEOUT_MS,
  extractJson,
  providerError,
  type AiConfig,
} from "@/lib/ai/model";

/**
 * The model behind the AI builder: the shop's configured provider (`lib/ai/model.ts`, shared with
 * the AI step), asked with the builder's words in its sentences.
 */
export { aiConfig, askModel, DEFAULT_TIMEOUT_MS, extractJson, providerError, type AiConfig };

export const NOT_CONFIGURED =
  "The AI builder is not set up for this shop yet; ask your administrator to connect an AI model.";
