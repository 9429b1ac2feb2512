"use client";

import { useId, useState, useTransition, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { FieldHint, Input, Label, Select } from "@/components/ui/form";
import { Notice } from "@/components/ui/notice";
import { addUserAction } from "@/lib/actions/users/add-user";
import type { Role } from "@/lib/identity/roles";
import { ROLE_OPTIONS, isRole } from "./role-options";

type Outcome = { tone: "success" | "error"; text: string } | null;

/** Admin-only: add a staff member with a first password to pass on to them. */
export function AddUserForm() {
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [role, setRole] = useState<Role>("viewer");
  const [pending, startTransition] = useTransition();
  const ids = {
    email: useId(),
    name: useId(),
    role: useId(),
    password: useId(),
    passwordHint: useId(),
    roleHint: useId(),
  };

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const input = {
      email: String(data.get("email") ?? ""),
      name: String(data.get("name") ?? ""),
      role,
      password: String(data.get("password") ?? ""),
    };
    setOutcome(null);
    startTransition(async () => {
      const result = await addUserAction(input);
      if (!result.ok) return setOutcome({ tone: "error", text: result.error });
      form.reset();
      setRole("viewer");
      setOutcome({
        tone: "success",
        // addMember keeps the existing login of someone who already works for another shop, so the
        // password typed here only applies to people new to Tillflow; the message says so.
        text: `${result.data.email} can now sign in. Someone new to Tillflow uses the password you set (share it privately); someone who already has a Tillflow login keeps their own.`,
      });
    });
  }

  return (
    <Card>
      <CardHeader
        title="Add a user"
        description="Staff sign in with their email and the password you set here."
      />
      <CardBody>
        <form onSubmit={submit} className="grid gap-4 sm:grid-cols-2">
          <div>
            <Label htmlFor={ids.email}>Email</Label>
            <Input id={ids.email} name="email" type="email" required autoComplete="off" className="mt-1.5" />
          </div>
          <div>
            <Label htmlFor={ids.name}>
              Name <span className="font-normal text-zinc-500">(optional)</span>
            </Label>
            <Input id={ids.name} name="name" maxLength={100} autoComplete="off" className="mt-1.5" />
          </div>
          <div>
            <Label htmlFor={ids.role}>Role</Label>
            <Select
              id={ids.role}
              name="role"
              value={role}
              onChange={(e) => {
                if (isRole(e.target.value)) setRole(e.target.value);
              }}
              aria-describedby={ids.roleHint}
              className="mt-1.5"
            >
              {ROLE_OPTIONS.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </Select>
            <FieldHint id={ids.roleHint}>{ROLE_OPTIONS.find((o) => o.value === role)?.description}</FieldHint>
          </div>
          <div>
            <Label htmlFor={ids.password}>First password</Label>
            <Input
              id={ids.password}
              name="password"
              type="password"
              required
              minLength={8}
              maxLength={128}
              autoComplete="new-password"
              aria-describedby={ids.passwordHint}
              className="mt-1.5"
            />
            <FieldHint id={ids.passwordHint}>At least 8 characters.</FieldHint>
          </div>
          <div className="flex flex-wrap items-center gap-3 sm:col-span-2">
            <Button type="submit" variant="primary" pending={pending}>
              Add user
            </Button>
          </div>
          {outcome && (
            <Notice tone={outcome.tone} className="sm:col-span-2">
              {outcome.text}
            </Notice>
          )}
        </form>
      </CardBody>
    </Card>
  );
}
