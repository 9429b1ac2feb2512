import type { ActionType } from "@/lib/automations/nodes/registry";
import { addNote } from "../add-note/add-note";
import { createTask } from "../create-task/create-task";
import { httpRequest } from "../http-request/http-request";
import { laterAction } from "../later/later";
import { sendEmail } from "../send-email/send-email";
import { addTag } from "../tags/add-tag";
import { removeTag } from "../tags/remove-tag";

/**
 * What a code step's `actions.*` calls become: each call names an action node type and turns its
 * arguments into that node's params, so the action is then validated, executed, deduplicated and
 * shown exactly as the node would be. Each names its action by the action's definition, whose
 * folder owns the type (written `as const` there, so it stays an `ActionType`). Browser-safe (the
 * editor's completions read it too).
 */

/** SPEC §2 "Code step": at most this many actions per step. */
export const MAX_SCRIPT_ACTIONS = 50;

type Args = readonly unknown[];
type Options = Record<string, unknown>;

function optionsAt(args: Args, index: number): Options {
  const value = args[index];
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Options) : {};
}

/** Drops `undefined` so a param left out is absent (its default applies), not `undefined`. */
function defined(params: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(params).filter(([, value]) => value !== undefined));
}

export interface ScriptActionSpec {
  type: ActionType;
  /** How a merchant calls it, for completions and error messages. */
  signature: string;
  /** One line for completions. */
  doc: string;
  params(args: Args): Record<string, unknown>;
}

export const SCRIPT_ACTIONS = {
  tag: {
    type: addTag.type,
    signature: "actions.tag(tag)",
    doc: "Adds a tag to the record.",
    params: ([tag]) => ({ tag }),
  },
  untag: {
    type: removeTag.type,
    signature: "actions.untag(tag)",
    doc: "Removes a tag from the record.",
    params: ([tag]) => ({ tag }),
  },
  note: {
    type: addNote.type,
    signature: "actions.note(body)",
    doc: "Adds a note to the record.",
    params: ([body]) => ({ body }),
  },
  email: {
    type: sendEmail.type,
    signature: "actions.email(to, subject, body)",
    doc: "Sends an email (through the outbox).",
    params: ([to, subject, body]) => ({ to, subject, body }),
  },
  task: {
    type: createTask.type,
    signature: "actions.task(title, dueIn?)",
    doc: "Creates a staff to-do, optionally due in a duration such as '2h'.",
    params: ([title, dueIn]) => defined({ title, dueIn }),
  },
  http: {
    type: httpRequest.type,
    signature: "actions.http(url, { method?, headers?, body?, retry? })",
    doc: "Sends an HTTP request (POST unless a method is given); a body object is sent as JSON; retry as the HTTP step's.",
    params: (args) => {
      const { method, headers, body, retry } = optionsAt(args, 1);
      return defined({
        url: args[0],
        method: typeof method === "string" ? method.toUpperCase() : method,
        headers,
        body: body !== undefined && typeof body !== "string" ? JSON.stringify(body) : body,
        retry,
      });
    },
  },
  later: {
    type: laterAction.type,
    signature: "actions.later(when, then, { key?, step? })",
    doc: "Runs this automation again at its Later trigger for then.step (or the step given), handing back then.",
    params: (args) => {
      const then = optionsAt(args, 1);
      const { key, step } = optionsAt(args, 2);
      return defined({ when: args[0], then, key, step: step ?? then.step });
    },
  },
} satisfies Record<string, ScriptActionSpec>;

export type ScriptActionName = keyof typeof SCRIPT_ACTIONS;

export function isScriptActionName(name: string): name is ScriptActionName {
  return Object.hasOwn(SCRIPT_ACTIONS, name);
}

/** One action a script asked for, as it will be executed: a node type with its params. */
export interface ScriptAction {
  /** The `actions.*` call that asked for it. */
  call: ScriptActionName;
  type: ActionType;
  params: Record<string, unknown>;
}
