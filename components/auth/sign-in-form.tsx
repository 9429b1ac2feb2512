"use client";

import { useActionState } from "react";
import { Button } from "@/components/ui/button";
import { Input, Label } from "@/components/ui/form";
import { signIn, type SignInState } from "@/lib/actions/auth/sign-in";
import { FormError } from "./form-parts";

const initial: SignInState = { error: null, email: "" };

export function SignInForm() {
  const [state, formAction, pending] = useActionState(signIn, initial);
  return (
    <form action={formAction} className="space-y-5">
      <FormError error={state.error} />
      <div>
        <Label htmlFor="email">Email</Label>
        <Input
          id="email"
          name="email"
          type="email"
          autoComplete="username"
          required
          autoFocus
          defaultValue={state.email}
          aria-invalid={state.error ? true : undefined}
          className="mt-1.5"
        />
      </div>
      <div>
        <Label htmlFor="password">Password</Label>
        <Input
          id="password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          aria-invalid={state.error ? true : undefined}
          className="mt-1.5"
        />
      </div>
      <Button type="submit" variant="primary" pending={pending} className="w-full">
        {pending ? "Signing in…" : "Sign in"}
      </Button>
    </form>
  );
}
