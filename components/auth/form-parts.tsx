import type { ReactNode } from "react";
import { FieldHint, Input, Label } from "@/components/ui/form";
import { Notice } from "@/components/ui/notice";

/** The sentence a sign-in, invitation or reset form's action answered with, when it refused. */
export function FormError({ error }: { error: string | null }) {
  return error ? (
    <Notice tone="error" className="py-2.5">
      {error}
    </Notice>
  ) : null;
}

/** A password the person chooses (an invitation's or a reset's), with its rule under it. */
export function NewPasswordField({
  label,
  hint,
  autoFocus,
}: {
  label: string;
  hint: ReactNode;
  autoFocus?: boolean;
}) {
  return (
    <div>
      <Label htmlFor="password">{label}</Label>
      <Input
        id="password"
        name="password"
        type="password"
        required
        minLength={8}
        maxLength={128}
        autoComplete="new-password"
        autoFocus={autoFocus}
        aria-describedby="password-hint"
        className="mt-1.5"
      />
      <FieldHint id="password-hint">{hint}</FieldHint>
    </div>
  );
}
