import type { ServerFacts } from "@/lib/automations/review/validate";
import { aiConfig, type AiSettings } from "@/lib/ai/model";
import { config } from "@/lib/config/config";

/**
 * The server's facts that ready issues depend on (`validate`'s `facts`): read from the
 * environment at each call, like the model's settings themselves. Server-only.
 */
export function serverFacts(settings: AiSettings = config()): ServerFacts {
  return { aiConfigured: aiConfig(settings) !== null, askPurpose: true };
}
