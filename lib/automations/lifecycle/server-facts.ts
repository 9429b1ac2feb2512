import type { ServerFacts } from "@/lib/automations/review/validate";
import { aiConfig } from "@/lib/ai/model";

/**
 * The server's facts that ready issues depend on (`validate`'s `facts`): read from the
 * environment at each call, like the model's settings themselves. Server-only.
 */
export function serverFacts(env: NodeJS.ProcessEnv = process.env): ServerFacts {
  return { aiConfigured: aiConfig(env) !== null };
}
