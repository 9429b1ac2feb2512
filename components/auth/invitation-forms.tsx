"use client";

import Link from "next/link";
import { useActionState } from "react";
import { Button } from "@/components/ui/button";
import { FieldHint, Input, Label } from "@/components/ui/form";
import { Notice } from "@/components/ui/notice";
import {
  acceptInvitationAsNewLogin,
  acceptInvitationSignedIn,
  acceptInvitationWithPassword,
  type AcceptState,
} from "@/lib/actions/auth/accept-invitation";

const initial: AcceptState = { error: null };

function Problem({ state }: { state: AcceptState }) {
  return state.error ? (
    <Notice tone="error" className="py-2.5">
      {state.error}
    </Notice>
  ) : null;
}

/** A new email: the person chooses their name and password, and is signed in. */
export function NewLoginForm({ token, email }: { token: string; email: string }) {
  const [state, formAction, pending] = useActionState(acceptInvitationAsNewLogin.bind(null, token), initial);
  return (
    <form action={formAction} className="space-y-5">
      <Problem state={state} />
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
      <div>
        <Label htmlFor="password">Choose a password</Label>
        <Input
          id="password"
          name="password"
          type="password"
          required
          minLength={8}
          maxLength={128}
          autoComplete="new-password"
          aria-describedby="password-hint"
          className="mt-1.5"
        />
        <FieldHint id="password-hint">At least 8 characters. Only you know it.</FieldHint>
      </div>
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
      <Problem state={state} />
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
      <Problem state={state} />
      <Button type="submit" variant="primary" pending={pending} className="w-full">
        Accept
      </Button>
    </form>
  );
}
