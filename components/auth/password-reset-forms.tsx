"use client";

import { useActionState } from "react";
import { Button } from "@/components/ui/button";
import { Input, Label } from "@/components/ui/form";
import { Notice } from "@/components/ui/notice";
import { requestPasswordReset, type ResetRequestState } from "@/lib/actions/auth/request-password-reset";
import { resetPassword, type ResetState } from "@/lib/actions/auth/reset-password";
import { FormError, NewPasswordField } from "./form-parts";

const initialRequest: ResetRequestState = { error: null, sent: null };

/** "Forgot password?": asks for the email; answers the same whether it has a login or not. */
export function ForgotPasswordForm() {
  const [state, formAction, pending] = useActionState(requestPasswordReset, initialRequest);
  if (state.sent)
    return (
      <Notice tone="success" className="py-2.5">
        If {state.sent} has a Tillflow login, an email with a link to set a new password is on its way. The
        link works once, for an hour.
      </Notice>
    );
  return (
    <form action={formAction} className="space-y-5">
      <FormError error={state.error} />
      <div>
        <Label htmlFor="email">Email</Label>
        <Input
          id="email"
          name="email"
          type="email"
          required
          autoComplete="username"
          autoFocus
          className="mt-1.5"
        />
      </div>
      <Button type="submit" variant="primary" pending={pending} className="w-full">
        Email me a link
      </Button>
    </form>
  );
}

const initialReset: ResetState = { error: null };

/** The page a reset link opens: a new password, then sign-in. */
export function ResetPasswordForm({ token }: { token: string }) {
  const [state, formAction, pending] = useActionState(resetPassword.bind(null, token), initialReset);
  return (
    <form action={formAction} className="space-y-5">
      <FormError error={state.error} />
      <NewPasswordField
        label="New password"
        hint="At least 8 characters. Every session of yours ends when it is set."
        autoFocus
      />
      <Button type="submit" variant="primary" pending={pending} className="w-full">
        Set the new password
      </Button>
    </form>
  );
}
