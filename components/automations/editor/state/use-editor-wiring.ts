"use client";

import { useRouter } from "next/navigation";
import { useCallback, useEffect, useLayoutEffect, useMemo } from "react";
import { paramsKey } from "@/lib/automations/editor/history";
import { useAutosave } from "./use-autosave";
import { useEditorShortcuts } from "./use-editor-shortcuts";
import { useFirstUse } from "@/components/ui/hooks/use-first-use";
import { useNarrowScreen } from "@/components/ui/hooks/use-narrow-screen";
import { usePublishReadiness } from "./use-publish-readiness";
import { useStepTexts } from "./use-step-texts";
import { useEditor, useEditorApi, type EditorPage, type EditorView } from "./editor-context";
import { loadNodeLogic } from "./node-logic-loader";
import { selectReadOnly } from "./store";
import { useViewportCommands } from "./use-viewport-commands";

/**
 * Everything the editor does beside drawing: loads the registry's half at the first sign of use,
 * tells the store who may edit and how wide the screen is, autosaves, records a pause in typing
 * for undo, works out issues, sentences and whether Publish may go, and listens for the
 * shortcuts. Returns what the parts read besides the store (`EditorView`).
 */
export function useEditorWiring(page: EditorPage): EditorView {
  const api = useEditorApi();
  const router = useRouter();
  const { automation, firstPaint, catalog, canEdit } = page;
  const logic = useEditor((s) => s.logic);
  const graph = useEditor((s) => s.graph);
  const history = useEditor((s) => s.history);
  const name = useEditor((s) => s.name);
  const policy = useEditor((s) => s.policy);
  const viewing = useEditor((s) => s.viewing);
  const readOnly = useEditor(selectReadOnly);

  // The registry's half of the editor loads with the first sign of use (see `firstPaint`).
  const loadLogic = useCallback(
    () =>
      loadNodeLogic().then((module) => {
        api.getState().setLogic(module);
        return module;
      }),
    [api],
  );
  useFirstUse(!logic, loadLogic);
  // Phones get the flow to look at, not to edit (as Shopify Flow does): see EditorBanners.
  const narrow = useNarrowScreen();
  useLayoutEffect(() => api.getState().setAccess({ canEdit, narrow }), [api, canEdit, narrow]);

  // Typing in a form records one undo step once typing pauses, not one per key.
  const graphKey = paramsKey(graph);
  useEffect(() => {
    const timer = setTimeout(() => {
      if (paramsKey(api.getState().history.present) !== graphKey) api.getState().record(graph);
    }, 600);
    return () => clearTimeout(timer);
  }, [graphKey, graph, history, api]);

  const { issues, stepTexts, labelOf } = useStepTexts(graph, logic, firstPaint, catalog);
  const autosave = useAutosave({
    id: automation.id,
    enabled: canEdit,
    payload: { graph, name: name.trim() || automation.name, inFlightPolicy: policy },
    revision: automation.draftRevision,
    savedAt: automation.updatedAt,
    onSecretsMoved: (moved, sent) => {
      // Loaded when a save first stores a typed-in secret, not with the first paint.
      void import("./moved-secrets").then(({ adoptMovedSecrets }) =>
        api.getState().setNodes((ns) => adoptMovedSecrets(ns, moved, sent)),
      );
      // The new credentials join the pickers' lists.
      router.refresh();
    },
  });
  const { unchanged, draftChanged, publishBlocked } = usePublishReadiness(automation, {
    draft: { graph, name, inFlightPolicy: policy },
    issueCount: issues.length,
    logic,
    firstPaint,
  });
  const canPublish = canEdit && !viewing && publishBlocked === null;
  const commands = useViewportCommands(loadLogic, page.shopTimezone);

  const { deleteSelected, undo, redo, copy, paste, setSearchOpen, setPublishOpen, setFlash } = api.getState();
  const openStepSearch = useCallback(() => setSearchOpen(true), [setSearchOpen]);
  const publishByKey = useCallback(() => {
    if (canPublish) setPublishOpen(true);
    else if (publishBlocked) setFlash(publishBlocked);
  }, [canPublish, publishBlocked, setPublishOpen, setFlash]);
  useEditorShortcuts(readOnly, {
    deleteSelected,
    undo,
    redo,
    copy,
    paste,
    openStepSearch,
    publish: publishByKey,
  });

  return useMemo(
    () => ({
      ...page,
      ...commands,
      issues,
      stepTexts,
      labelOf,
      unchanged,
      draftChanged,
      publishBlocked,
      canPublish,
      saveState: autosave.state,
      flushSave: autosave.flush,
    }),
    [
      page,
      commands,
      issues,
      stepTexts,
      labelOf,
      unchanged,
      draftChanged,
      publishBlocked,
      canPublish,
      autosave.state,
      autosave.flush,
    ],
  );
}
