"use client";

import Link from "next/link";
import { useActionState } from "react";
import { Button } from "@/components/ui/button";
import { FieldHint, Input, Label } from "@/components/ui/form";
import { FormError, NewPasswordField } from "./form-parts";
import {
  acceptInvitationAsNewLogin,
  acceptInvitationSignedIn,
  acceptInvitationWithPassword,
  type AcceptState,
} from "@/lib/actions/auth/accept-invitation";

const initial: AcceptState = { error: null };

/** A new email: the person chooses their name and password, and is signed in. */
export function NewLoginForm({ token, email }: { token: string; email: string }) {
  const [state, formAction, pending] = useActionState(acceptInvitationAsNewLogin.bind(null, token), initial);
  return (
    <form action={formAction} className="space-y-5">
      <FormError error={state.error} />
      <div>
        <Label htmlFor="email">Email</Label>
        <Input id="email" value={email} readOnly autoComplete="username" className="mt-1.5" />
      </div>
      <div>
        <Label htmlFor="name">Your name</Label>
        <Input
          id="name"
          name="name"
          required
          maxLength={100}
          autoComplete="name"
          autoFocus
          className="mt-1.5"
        />
      </div>
      <NewPasswordField label="Choose a password" hint="At least 8 characters. Only you know it." />
      <Button type="submit" variant="primary" pending={pending} className="w-full">
        Accept and sign in
      </Button>
    </form>
  );
}

/** An existing login, signed out: sign in as the invited email and accept in one step. */
export function SignInAndAcceptForm({ token, email }: { token: string; email: string }) {
  const [state, formAction, pending] = useActionState(
    acceptInvitationWithPassword.bind(null, token),
    initial,
  );
  return (
    <form action={formAction} className="space-y-5">
      <FormError error={state.error} />
      <div>
        <Label htmlFor="email">Email</Label>
        <Input id="email" value={email} readOnly autoComplete="username" className="mt-1.5" />
      </div>
      <div>
        <Label htmlFor="password">Your password</Label>
        <Input
          id="password"
          name="password"
          type="password"
          required
          autoComplete="current-password"
          autoFocus
          className="mt-1.5"
        />
        <FieldHint>
          <Link href="/forgot-password" className="underline">
            Forgot password?
          </Link>
        </FieldHint>
      </div>
      <Button type="submit" variant="primary" pending={pending} className="w-full">
        Sign in and accept
      </Button>
    </form>
  );
}

/** Signed in as the invited email: one button. */
export function AcceptForm({ token }: { token: string }) {
  const [state, formAction, pending] = useActionState(acceptInvitationSignedIn.bind(null, token), initial);
  return (
    <form action={formAction} className="space-y-5">
      <FormError error={state.error} />
      <Button type="submit" variant="primary" pending={pending} className="w-full">
        Accept
      </Button>
    </form>
  );
}
