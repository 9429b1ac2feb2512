"use client";

import { useEffect, useRef } from "react";
import {
  autocompletion,
  closeBrackets,
  closeBracketsKeymap,
  completionKeymap,
  type CompletionContext,
  type CompletionResult,
} from "@codemirror/autocomplete";
import { defaultKeymap, history, historyKeymap, indentWithTab } from "@codemirror/commands";
import { javascript, javascriptLanguage } from "@codemirror/lang-javascript";
import {
  bracketMatching,
  defaultHighlightStyle,
  indentOnInput,
  syntaxHighlighting,
} from "@codemirror/language";
import { linter, lintKeymap, type Diagnostic } from "@codemirror/lint";
import { Compartment, EditorState, StateEffect, StateField, type Extension } from "@codemirror/state";
import {
  Decoration,
  drawSelection,
  EditorView,
  highlightActiveLine,
  highlightActiveLineGutter,
  keymap,
  lineNumbers,
  type DecorationSet,
} from "@codemirror/view";
import { cn } from "@/components/ui/cn";
import { completionsAt, type ScriptCompletions } from "./script-completions";

/**
 * The code step's script editor: CodeMirror 6 with JavaScript highlighting, line numbers,
 * completions for `actions.`, `event.`, `entity.` and `steps.`, and the syntax check as a lint
 * diagnostic on its line. Loaded on its own (`next/dynamic` in `code-config.tsx`), so only a code
 * step's form pays for it.
 *
 * Tab indents (`indentWithTab`); CodeMirror's own escape hatch keeps that from trapping keyboard
 * users: Escape, then Tab or Shift-Tab, moves focus out (the field's hint says so).
 */

export interface CodeEditorProps {
  /** The script when the editor opens; later edits come out through `onChange`. */
  initialValue: string;
  onChange(source: string): void;
  /** The field's label, which names the editor's text box. */
  labelId: string;
  id: string;
  "aria-invalid": true | undefined;
  "aria-describedby": string | undefined;
  disabled: boolean;
  completions: ScriptCompletions;
  /** The syntax check, shown as a diagnostic on its line. */
  lint(source: string): { message: string; line: number } | null;
  /** Warnings at a place in the script (an `entity.<x>` the record does not have). */
  warnings?(source: string): { from: number; to: number; message: string }[];
  /** A line to highlight: where the last "Run on a record" failed; null for none. */
  errorLine: number | null;
}

const setErrorLine = StateEffect.define<number | null>();

const errorLineMark = Decoration.line({ class: "cm-errorLine", attributes: { "data-error-line": "true" } });

/** The highlighted failing line; it goes away at the next edit (the script is not that script any more). */
const errorLineField = StateField.define<DecorationSet>({
  create: () => Decoration.none,
  update(lines, transaction) {
    if (transaction.docChanged) return Decoration.none;
    for (const effect of transaction.effects) {
      if (!effect.is(setErrorLine)) continue;
      const line = effect.value;
      if (line === null || line < 1 || line > transaction.state.doc.lines) return Decoration.none;
      return Decoration.set([errorLineMark.range(transaction.state.doc.line(line).from)]);
    }
    return lines;
  },
  provide: (field) => EditorView.decorations.from(field),
});

const theme = EditorView.theme({
  "&": { fontSize: "12px", backgroundColor: "white" },
  "&.cm-focused": { outline: "none" },
  ".cm-scroller": {
    fontFamily: "ui-monospace, SFMono-Regular, Menlo, Consolas, 'Liberation Mono', monospace",
    lineHeight: "1.6",
    minHeight: "12rem",
    maxHeight: "28rem",
  },
  ".cm-content": { padding: "6px 0" },
  ".cm-gutters": { backgroundColor: "#fafafa", color: "#71717a", borderRight: "1px solid #e4e4e7" },
  ".cm-activeLine": { backgroundColor: "#eef2ff80" },
  ".cm-activeLineGutter": { backgroundColor: "#eef2ff" },
  ".cm-errorLine": { backgroundColor: "#fee2e2" },
  ".cm-tooltip": { fontSize: "12px" },
  ".cm-tooltip-autocomplete ul li[aria-selected]": { backgroundColor: "#4f46e5", color: "white" },
});

export function CodeEditor({
  initialValue,
  onChange,
  labelId,
  id,
  "aria-invalid": invalid,
  "aria-describedby": describedBy,
  disabled,
  completions,
  lint,
  warnings,
  errorLine,
}: CodeEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  // The editor is made once; these read the latest props without rebuilding it.
  const latest = useRef({ onChange, completions, lint, warnings });
  useEffect(() => {
    latest.current = { onChange, completions, lint, warnings };
  });
  const attributes = useRef(new Compartment());
  const editable = useRef(new Compartment());

  useEffect(() => {
    const complete = (context: CompletionContext): CompletionResult | null => {
      const line = context.state.doc.lineAt(context.pos);
      const before = line.text.slice(0, context.pos - line.from);
      const found = completionsAt(latest.current.completions, before);
      if (!found) return null;
      const from = line.from + found.from;
      if (from === context.pos && !context.explicit && !before.endsWith(".")) return null;
      return { from, options: found.options, validFor: /^[\w$]*$/ };
    };
    const check = (editor: EditorView): Diagnostic[] => {
      const source = editor.state.doc.toString();
      const length = editor.state.doc.length;
      const found: Diagnostic[] = (latest.current.warnings?.(source) ?? [])
        .filter((w) => w.to <= length)
        .map((w) => ({ from: w.from, to: w.to, severity: "warning", message: w.message }));
      const problem = latest.current.lint(source);
      if (!problem) return found;
      const line = editor.state.doc.line(Math.min(Math.max(problem.line, 1), editor.state.doc.lines));
      return [...found, { from: line.from, to: line.to, severity: "error", message: problem.message }];
    };
    const extensions: Extension[] = [
      lineNumbers(),
      highlightActiveLineGutter(),
      history(),
      drawSelection(),
      indentOnInput(),
      bracketMatching(),
      closeBrackets(),
      highlightActiveLine(),
      syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
      javascript(),
      javascriptLanguage.data.of({ autocomplete: complete }),
      autocompletion(),
      linter(check, { delay: 300 }),
      errorLineField,
      keymap.of([
        ...closeBracketsKeymap,
        ...defaultKeymap,
        ...historyKeymap,
        ...completionKeymap,
        ...lintKeymap,
        indentWithTab,
      ]),
      attributes.current.of([]),
      editable.current.of([]),
      EditorView.updateListener.of((update) => {
        if (update.docChanged) latest.current.onChange(update.state.doc.toString());
      }),
      theme,
    ];
    const editor = new EditorView({
      parent: host.current!,
      state: EditorState.create({ doc: initialValue, extensions }),
    });
    view.current = editor;
    return () => {
      editor.destroy();
      view.current = null;
    };
    // The document is the editor's own from here on; the form remounts it when params change elsewhere.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    const content: Record<string, string> = { id, "aria-labelledby": labelId };
    if (invalid) content["aria-invalid"] = "true";
    if (describedBy) content["aria-describedby"] = describedBy;
    view.current?.dispatch({
      effects: [
        attributes.current.reconfigure(EditorView.contentAttributes.of(content)),
        editable.current.reconfigure([EditorView.editable.of(!disabled), EditorState.readOnly.of(disabled)]),
      ],
    });
  }, [id, labelId, invalid, describedBy, disabled]);

  useEffect(() => {
    view.current?.dispatch({ effects: setErrorLine.of(errorLine) });
    if (errorLine !== null && view.current) {
      const doc = view.current.state.doc;
      if (errorLine >= 1 && errorLine <= doc.lines)
        view.current.dispatch({
          effects: EditorView.scrollIntoView(doc.line(errorLine).from, { y: "center" }),
        });
    }
  }, [errorLine]);

  return (
    <div
      ref={host}
      data-code-editor
      className={cn(
        "overflow-hidden rounded-lg border border-zinc-300 shadow-xs focus-within:border-indigo-600 focus-within:outline-2 focus-within:outline-indigo-600/30",
        invalid && "border-red-500",
        disabled && "opacity-75",
      )}
    />
  );
}
