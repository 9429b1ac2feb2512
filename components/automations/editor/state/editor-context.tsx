"use client";

import { createContext, use, type RefObject } from "react";
import { useStoreWithEqualityFn } from "zustand/traditional";
import type { EditorFirstPaint } from "@/lib/automations/editor/first-paint";
import type { AutomationView } from "@/lib/automations/lifecycle/read";
import type { NodeCatalog, NodeInfo } from "@/lib/automations/nodes/catalog";
import type { ReadyIssue } from "@/lib/automations/review/validate";
import type { CredentialOption } from "../step-form/credential-options";
import type { StepTexts } from "../canvas/step-nodes";
import type { SaveState } from "./use-autosave";
import type { EditorStore, EditorStoreApi, ViewedVersion } from "./store";

/** The page's say about this editor: the automation as last read, who may do what, the first paint. */
export interface EditorPage {
  automation: AutomationView;
  /** Editors and admins; for a built-in, admins only; nobody while it is archived. */
  canEdit: boolean;
  /** Editors and admins may archive and restore it; never a built-in. */
  canArchive: boolean;
  isAdmin: boolean;
  waitingRuns: number;
  shopTimezone: string;
  /** The shop's credentials, without values, for the steps that choose one. */
  credentials: readonly CredentialOption[];
  /** The node catalog, the draft's sentences and issues, worked out on the server. */
  firstPaint: EditorFirstPaint;
  catalog: NodeCatalog;
  /** What just happened (published, reverted, reset), above the editor until dismissed. */
  notice: string | null;
  onNotice(text: string | null): void;
}

/**
 * What the parts read besides the store: the page's props, what is worked out from the graph
 * once per change (issues, sentences, whether Publish may go, the save's state) and the commands
 * that move React Flow's viewport too (add a step and centre it, focus a step, tidy up, show a
 * version). Made once by `useEditorWiring` in the editor's layout.
 */
export interface EditorView extends EditorPage {
  issues: ReadyIssue[];
  stepTexts: StepTexts;
  /** A step's sentence by its id (the id itself for a step that is gone). */
  labelOf(nodeId: string): string;
  unchanged: boolean;
  /** Whether the draft differs from the active version, for the publish state. */
  draftChanged: boolean;
  /** Why Publish may not go, or null. */
  publishBlocked: string | null;
  canPublish: boolean;
  saveState: SaveState;
  /** Saves the draft now (before publishing or archiving). */
  flushSave(): Promise<boolean>;
  /** The palette's pick as a new step; from the add-step search, `focusField` puts the focus in its first field. */
  addStep(definition: NodeInfo, focusField?: boolean): void;
  /** Selects only this step, brings it into view and opens its settings. */
  focusNode(nodeId: string): void;
  tidyUp(): void;
  showVersion(version: ViewedVersion | null): void;
  /** "+" under an exit: the next step goes there; the palette's search gets the focus. */
  onAddAfter(nodeId: string, handle: string): void;
  /** The palette's search field, focused when "+" is clicked. */
  searchRef: RefObject<HTMLInputElement | null>;
}

export const EditorStoreContext = createContext<EditorStoreApi | null>(null);
export const EditorViewContext = createContext<EditorView | null>(null);

/** The editor's store itself, for actions and for reading the latest state in a callback. */
export function useEditorApi(): EditorStoreApi {
  // Every part is rendered inside `Editor`, which provides both contexts.
  return use(EditorStoreContext)!;
}

/** What `selector` picks from the editor's store; the part re-renders only when that changes. */
export function useEditor<T>(selector: (state: EditorStore) => T, equal?: (a: T, b: T) => boolean): T {
  return useStoreWithEqualityFn(useEditorApi(), selector, equal);
}

export function useEditorView(): EditorView {
  return use(EditorViewContext)!;
}
