import { z } from "zod";
import { aiConfig } from "@/lib/ai/model";
import { entityLabel } from "@/lib/domains/labels";
import { AppError, parseOrThrow } from "@/lib/errors";
import { newLeg } from "@/lib/automations/engine/leg";
import { prepareAction } from "@/lib/automations/engine/prepare";
import { aiAction, AI_NOT_SET_UP } from "@/lib/automations/nodes/ai/ai";
import { spendAiCall } from "@/lib/ai/budget";
import { askAi, type AiRequest } from "@/lib/automations/nodes/ai/ai.execute";
import { ActionError } from "@/lib/automations/nodes/executor";
import { namesWholeRecord, recordToTry, recordToTryShape } from "./code-preview";

/**
 * "Try with the model" in the AI step's settings: the step as typed, its prompt filled in from one
 * of the shop's records (as a run would fill it, through the step's own executor), asked of the
 * model once. It spends one call of the shop's hourly budget (lib/ai/budget.ts, shared with the AI
 * builder; a 429 past it); nothing is recorded. Earlier steps' outputs only exist in a run, so `{steps.…}` tokens are empty here.
 */

export const aiTryInput = z
  .strictObject({ params: z.record(z.string(), z.unknown()), ...recordToTryShape })
  .refine(...namesWholeRecord);

export type AiTryInput = z.input<typeof aiTryInput>;

export interface AiTry {
  record: { domain: string; id: string; label: string } | null;
  /** The prompt as it was sent, tokens filled in. */
  prompt: string;
  /** The checked answer (what `{steps.<id>.…}` would read), or the sentence the step would fail with. */
  result: { ok: true; answer: Record<string, unknown> } | { ok: false; error: string };
}

const TRY_ID = "ai-try";

export async function tryAi(
  tenantId: string,
  body: unknown,
  options: { timeZone?: string } = {},
): Promise<AiTry> {
  const input = parseOrThrow(aiTryInput, body ?? {}, "The AI step cannot be tried");
  const now = new Date();
  const { entity, event } = await recordToTry(tenantId, input, now);
  // After the record: another shop's record is not found, whether or not a model is set up.
  const config = aiConfig();
  if (!config) throw new AppError(503, "unavailable", AI_NOT_SET_UP);
  const leg = newLeg({
    tenantId,
    runId: TRY_ID,
    automationId: TRY_ID,
    automationName: "Try with the model",
    automationVersion: 0,
    leg: 1,
    event,
    entity,
    now,
    timeZone: options.timeZone ?? "UTC",
  });
  const record = entity
    ? { domain: entity.domain, id: entity.id, label: entityLabel(entity.domain, entity.id, entity.data) }
    : null;
  const prepared = prepareAction(leg, {
    kind: "action",
    nodeId: TRY_ID,
    nodeType: aiAction.type,
    params: input.params,
  });
  const prompt = typeof prepared.request?.prompt === "string" ? prepared.request.prompt : "";
  if (!prepared.ok) return { record, prompt, result: { ok: false, error: prepared.error } };
  // The builder's budget, not the runs' allowance: trying prompts never starves live flows.
  await spendAiCall(tenantId);
  try {
    const answer = await askAi(prepared.request as AiRequest, config);
    return { record, prompt, result: { ok: true, answer } };
  } catch (error) {
    if (error instanceof ActionError) return { record, prompt, result: { ok: false, error: error.message } };
    throw error;
  }
}
