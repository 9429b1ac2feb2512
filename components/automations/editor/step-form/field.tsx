"use client";

import { useId, type ComponentProps, type ReactNode } from "react";
import { cn } from "@/components/ui/cn";
import { FieldHint, Label } from "@/components/ui/form";
import { Notice } from "@/components/ui/notice";

/**
 * The chrome every settings field shares: a label, the control, a hint and the error under it,
 * wired together with ids so a screen reader reads the hint and the error with the control.
 */

/** What a control needs to be labelled and described: spread it onto the input. */
export interface ControlA11y {
  id: string;
  "aria-invalid": true | undefined;
  "aria-describedby": string | undefined;
}

function describedBy(...ids: (string | false | undefined)[]): string | undefined {
  const list = ids.filter((id): id is string => typeof id === "string");
  return list.length > 0 ? list.join(" ") : undefined;
}

/** The error under a field, in red; nothing when there is none. */
export function FieldError({ id, children }: { id: string; children: string | undefined }) {
  if (!children) return null;
  return (
    <p id={id} className="mt-1.5 text-xs font-medium text-red-700">
      {children}
    </p>
  );
}

/**
 * A line under a templated field: its text with the tokens filled in, and what they were filled
 * from ("a sample order"). Wrapped, so a long email body stays readable; the field is described by it.
 */
export function FieldPreview({ id, text, of }: { id: string; text: string; of: string }) {
  return (
    <p id={id} data-preview className="mt-1.5 rounded-md bg-zinc-50 px-2 py-1 text-xs text-zinc-700">
      <span className="font-medium text-zinc-900">Preview</span>
      <span className="text-zinc-500"> with {of}: </span>
      <span className="line-clamp-4 break-words whitespace-pre-wrap">{text}</span>
    </p>
  );
}

export interface FormFieldProps {
  label: string;
  /** The param the field edits, as `data-param` on its wrapper: a stable hook for tests. */
  param?: string;
  hint?: string;
  error?: string;
  /** Shown after the label: "optional". */
  optional?: boolean;
  /** A control beside the label, such as the token picker (given the label's id, to be described by it). */
  action?: (labelId: string) => ReactNode;
  /** The text with its tokens filled in, under the error (see `FieldPreview`). */
  preview?: { text: string; of: string } | null;
  children: (a11y: ControlA11y) => ReactNode;
  className?: string;
}

export function FormField({
  label,
  param,
  hint,
  error,
  optional,
  action,
  preview,
  children,
  className,
}: FormFieldProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const previewId = `${id}-preview`;
  const a11y: ControlA11y = {
    id,
    "aria-invalid": error ? true : undefined,
    "aria-describedby": describedBy(error && errorId, Boolean(preview) && previewId, hint && hintId),
  };
  return (
    <div className={className} data-param={param}>
      <div className="mb-1.5 flex min-h-6 items-end justify-between gap-2">
        {/* "optional" sits beside the label, not in it, so the control's name stays exactly the label. */}
        <div className="flex items-baseline gap-1.5">
          <Label htmlFor={id} id={`${id}-label`}>
            {label}
          </Label>
          {optional && <span className="text-xs text-zinc-500">optional</span>}
        </div>
        {action?.(`${id}-label`)}
      </div>
      {children(a11y)}
      <FieldError id={errorId}>{error}</FieldError>
      {preview && <FieldPreview id={previewId} text={preview.text} of={preview.of} />}
      {hint && <FieldHint id={hintId}>{hint}</FieldHint>}
    </div>
  );
}

export interface FormFieldsetProps {
  legend: string;
  hint?: string;
  error?: string;
  optional?: boolean;
  /** Receives whether the group is invalid, for `aria-invalid` on each choice. */
  children: (invalid: true | undefined) => ReactNode;
  className?: string;
}

/** A group of choices (checkboxes) under one legend, described by its hint and error. */
export function FormFieldset({ legend, hint, error, optional, children, className }: FormFieldsetProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  return (
    <fieldset className={className} aria-describedby={describedBy(error && errorId, hint && hintId)}>
      <legend className="mb-1.5 text-sm font-medium text-zinc-800">
        {legend}
        {optional && (
          <span aria-hidden="true" className="ml-1.5 text-xs font-normal text-zinc-500">
            optional
          </span>
        )}
      </legend>
      {children(error ? true : undefined)}
      <FieldError id={errorId}>{error}</FieldError>
      {hint && <FieldHint id={hintId}>{hint}</FieldHint>}
    </fieldset>
  );
}

const textareaClass =
  "block w-full rounded-lg border border-zinc-300 bg-white px-3 py-2 text-sm text-zinc-900 shadow-xs " +
  "placeholder:text-zinc-400 focus:border-indigo-600 focus:outline-2 focus:outline-offset-0 focus:outline-indigo-600/30 " +
  "disabled:cursor-not-allowed disabled:bg-zinc-50 disabled:text-zinc-500 aria-invalid:border-red-500";

/** A multi-line control styled like `components/ui/form`'s Input. */
export function Textarea({ className, rows = 4, ...props }: ComponentProps<"textarea">) {
  return <textarea rows={rows} className={cn(textareaClass, className)} {...props} />;
}

/** A checkbox with its label to the right. */
export function Checkbox({ label, className, ...props }: ComponentProps<"input"> & { label: ReactNode }) {
  return (
    <label className={cn("inline-flex items-center gap-2 text-sm text-zinc-800", className)}>
      <input
        type="checkbox"
        className="size-4 rounded border-zinc-300 text-indigo-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 disabled:cursor-not-allowed"
        {...props}
      />
      {label}
    </label>
  );
}

/** A sentence at the top of a form about the whole step rather than one field. */
export function FormError({ children }: { children: string | undefined }) {
  if (!children) return null;
  return <Notice tone="error">{children}</Notice>;
}
