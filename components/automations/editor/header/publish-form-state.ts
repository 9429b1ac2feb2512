import { needsName } from "@/lib/automations/editor/names";
import type { Failure } from "../panel/failure-notice";

/** What the dialog says of the runs waiting now: asked when it opens, and again on a new policy. */
export type Impact =
  | { state: "loading" }
  | { state: "ready"; message: string; waitingRuns: number }
  | { state: "failed"; error: string };

/** The server's yes: the version now running, whether it is new, and what happens to waiting runs. */
export type Done = { version: number; published: boolean; message: string };

/** Everything the publish form holds, in one place. */
export interface PublishFormState {
  /** An unnamed draft ("Untitled automation") is named here; decided once, when the dialog opens. */
  askName: boolean;
  givenName: string;
  nameError: string | null;
  note: string;
  impact: Impact;
  failure: Failure | null;
  done: Done | null;
}

export type PublishFormAction =
  | { type: "name"; value: string }
  | { type: "note"; value: string }
  /** The impact is read again (the policy changed); the old sentence goes until the new one comes. */
  | { type: "impact"; impact: Impact }
  /** Publish was pressed: the last failure goes; an asked-for name still empty stops it here. */
  | { type: "submit" }
  | { type: "save-failed" }
  /** The server said no; `issues` are the ready issues of a 422, one per problem. */
  | { type: "publish-failed"; version: number; error: string; issues: string[] }
  | { type: "published"; done: Done };

export const NAME_MISSING = "Give the automation a name before publishing it.";

export const SAVE_FAILED: Failure = {
  title: "Your latest edits could not be saved",
  text: "Nothing was published. The editor shows why the save failed; fix that and publish again.",
  issues: [],
};

/** The form as the dialog opens on a draft named `draftOrSaved` (the draft's name, else the saved one). */
export function initialPublishForm(draftOrSaved: string): PublishFormState {
  return {
    askName: needsName(draftOrSaved),
    givenName: "",
    nameError: null,
    note: "",
    impact: { state: "loading" },
    failure: null,
    done: null,
  };
}

/** Whether Publish may go to the server: an asked-for name must be given first. */
export function mayPublish(state: PublishFormState): boolean {
  return !(state.askName && needsName(state.givenName));
}

export function publishFormReducer(state: PublishFormState, action: PublishFormAction): PublishFormState {
  switch (action.type) {
    case "name":
      return { ...state, givenName: action.value, nameError: null };
    case "note":
      return { ...state, note: action.value };
    case "impact":
      return { ...state, impact: action.impact };
    case "submit":
      return { ...state, failure: null, nameError: mayPublish(state) ? state.nameError : NAME_MISSING };
    case "save-failed":
      return { ...state, failure: SAVE_FAILED };
    case "publish-failed":
      return {
        ...state,
        failure: {
          title: `Version ${action.version} was not published`,
          // The message repeats the issues, so the list stands in for it.
          text: action.issues.length > 0 ? fixSentence(action.issues.length) : action.error,
          issues: action.issues,
        },
      };
    case "published":
      return { ...state, done: action.done };
  }
}

/**
 * The name the dialog says back, and how it calls the automation in a sentence: until a name is
 * typed, the placeholder one is not said back ("this automation").
 */
export function publishName(
  state: Pick<PublishFormState, "askName" | "givenName">,
  draftOrSaved: string,
): { name: string; called: string } {
  const typed = state.givenName.trim();
  const name = state.askName ? typed || draftOrSaved : draftOrSaved;
  return { name, called: state.askName && !typed ? "this automation" : `'${name}'` };
}

/** The first line of the form: what publishing does to the automation in its status now. */
export function publishLead(
  status: "draft" | "active" | "paused" | "archived",
  called: string,
  version: number,
): string {
  const next = version + 1;
  if (status === "active")
    return `${capitalised(called)} switches from version ${version} to version ${next}.`;
  if (status === "paused")
    return `${capitalised(called)} is paused; publishing turns it on again with version ${next}.`;
  return `Publishing turns ${called} on: new events start runs.`;
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function fixSentence(count: number): string {
  return count === 1 ? "Fix this first:" : `Fix these ${count} things first:`;
}
