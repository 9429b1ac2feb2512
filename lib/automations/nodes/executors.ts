import type { z } from "zod";
import { addNoteExecutor } from "./add-note/add-note.execute";
import { aiExecutor } from "./ai/ai.execute";
import { codeExecutor } from "./code/code.execute";
import { createTaskExecutor } from "./create-task/create-task.execute";
import { httpRequestExecutor } from "./http-request/http-request.execute";
import { laterExecutor } from "./later/later.execute";
import {
  markCartsAbandonedExecutor,
  markInvoicesOverdueExecutor,
  purgeRunHistoryExecutor,
} from "./platform/platform.execute";
import { sendEmailExecutor } from "./send-email/send-email.execute";
import { slackExecutor } from "./slack/slack.execute";
import {
  storeAddOrderNoteExecutor,
  storeAddTagsExecutor,
  storeHoldFulfillmentExecutor,
  storeReleaseHoldExecutor,
  storeRemoveTagsExecutor,
  storeSetMetafieldExecutor,
} from "./store/store.execute";
import { addTagExecutor, removeTagExecutor } from "./tags/tags.execute";
import type { ActionExecutor } from "./executor";
import type { ActionType, NODE_DEFINITIONS } from "./registry";

type ParamsOf<T extends ActionType> = z.infer<(typeof NODE_DEFINITIONS)[T]["params"]>;

/**
 * Every action type's executor. Typed as a complete record over the registry's action types, so
 * an action without an executor (or with one for the wrong params) is a compile error.
 */
export const EXECUTORS: { [T in ActionType]: ActionExecutor<ParamsOf<T>> } = {
  "auto.action.add_tag": addTagExecutor,
  "auto.action.remove_tag": removeTagExecutor,
  "auto.action.add_note": addNoteExecutor,
  "auto.action.send_email": sendEmailExecutor,
  "auto.action.http_request": httpRequestExecutor,
  "auto.action.create_task": createTaskExecutor,
  "auto.action.later": laterExecutor,
  "auto.action.code": codeExecutor,
  "auto.action.ai": aiExecutor,
  "auto.action.slack": slackExecutor,
  "auto.action.store_add_tags": storeAddTagsExecutor,
  "auto.action.store_remove_tags": storeRemoveTagsExecutor,
  "auto.action.store_add_order_note": storeAddOrderNoteExecutor,
  "auto.action.store_hold_fulfillment": storeHoldFulfillmentExecutor,
  "auto.action.store_release_hold": storeReleaseHoldExecutor,
  "auto.action.store_set_metafield": storeSetMetafieldExecutor,
  "auto.action.mark_carts_abandoned": markCartsAbandonedExecutor,
  "auto.action.mark_invoices_overdue": markInvoicesOverdueExecutor,
  "auto.action.purge_run_history": purgeRunHistoryExecutor,
};

/** The executor for a stored node type, whose params the caller has already parsed with its schema. */
export function executorFor(type: string): ActionExecutor<never> | undefined {
  return Object.hasOwn(EXECUTORS, type)
    ? (EXECUTORS[type as ActionType] as ActionExecutor<never>)
    : undefined;
}
