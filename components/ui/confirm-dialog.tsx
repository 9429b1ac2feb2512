"use client";

import { useId, useRef, type ReactNode } from "react";
import { Button, type ButtonSize, type ButtonVariant } from "./button";
import { cn } from "./cn";
import { menuItemClasses } from "./menu";

export interface ConfirmButtonProps {
  /** The text of the button that opens the dialog. */
  label: string;
  /** The accessible name of that button when the label alone is ambiguous in a list ("Revoke Zapier key"). */
  ariaLabel?: string;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  /** The button that closes the dialog doing nothing; "Cancel" unless that word is the action ("Keep waiting"). */
  dismissLabel?: string;
  onConfirm: () => void;
  /** Called as the dialog opens, e.g. to read what the action would do right now. */
  onOpen?: () => void;
  variant?: ButtonVariant;
  size?: ButtonSize;
  pending?: boolean;
  disabled?: boolean;
  /** Drawn as an item of a `Menu` (role `menuitem`) instead of a button. Default false. */
  menuItem?: boolean;
}

/**
 * A button that asks first, in a native modal `<dialog>`: focus moves into it, Escape cancels,
 * and the page behind cannot be clicked. The dismiss button is focused first so Enter never destroys by accident.
 */
export function ConfirmButton({
  label,
  ariaLabel,
  title,
  children,
  confirmLabel,
  dismissLabel = "Cancel",
  onConfirm,
  onOpen,
  variant = "danger",
  size = "sm",
  pending = false,
  disabled = false,
  menuItem = false,
}: ConfirmButtonProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();

  return (
    <>
      {menuItem ? (
        <button
          type="button"
          role="menuitem"
          tabIndex={-1}
          className={cn(menuItemClasses, variant === "danger" && "text-red-700")}
          aria-label={ariaLabel}
          aria-busy={pending || undefined}
          disabled={disabled || pending}
          onClick={() => {
            onOpen?.();
            dialog.current?.showModal();
          }}
        >
          {label}
        </button>
      ) : (
        <Button
          size={size}
          variant={variant === "danger" ? "danger-outline" : variant}
          aria-label={ariaLabel}
          pending={pending}
          disabled={disabled}
          onClick={() => {
            onOpen?.();
            dialog.current?.showModal();
          }}
        >
          {label}
        </Button>
      )}
      <dialog
        ref={dialog}
        aria-labelledby={titleId}
        className="m-auto w-[calc(100%-2rem)] max-w-md rounded-xl text-left border border-zinc-200 bg-white p-0 text-zinc-900 shadow-xl"
      >
        <form method="dialog" className="p-6">
          <h2 id={titleId} className="text-base font-semibold">
            {title}
          </h2>
          <div className="mt-2 text-sm leading-6 text-zinc-600">{children}</div>
          <div className="mt-6 flex justify-end gap-3">
            <Button type="submit" value="cancel" autoFocus>
              {dismissLabel}
            </Button>
            <Button
              type="button"
              variant={variant}
              onClick={() => {
                dialog.current?.close();
                onConfirm();
              }}
            >
              {confirmLabel}
            </Button>
          </div>
        </form>
      </dialog>
    </>
  );
}
