"use client";

import { useId, useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { FieldHint, Input, Label, Select } from "@/components/ui/form";
import { Notice } from "@/components/ui/notice";
import { useServerAction } from "@/components/ui/hooks/use-server-action";
import { inviteUserAction } from "@/lib/actions/users/invite-user";
import type { Role } from "@/lib/identity/roles";
import { InvitationLink } from "./invitation-link";
import { ROLE_OPTIONS, isRole } from "./role-options";

/** Admin-only: invite someone by email. They choose their own password (or use the login they have). */
export function InviteUserForm() {
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState<{ email: string; link: string } | null>(null);
  const [role, setRole] = useState<Role>("viewer");
  const inviteUser = useServerAction(inviteUserAction);
  const ids = { email: useId(), role: useId(), roleHint: useId() };

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const input = { email: String(new FormData(form).get("email") ?? ""), role };
    setError(null);
    inviteUser.run(input, (result) => {
      if (!result.ok) return setError(result.error);
      form.reset();
      setRole("viewer");
      setSent({ email: result.data.email, link: result.data.link });
    });
  }

  return (
    <Card>
      <CardHeader
        title="Invite a user"
        description="They get an email with a link: someone new to Tillflow sets their own password; someone who already has a login accepts while signed in."
      />
      <CardBody className="space-y-4">
        {sent && <InvitationLink email={sent.email} link={sent.link} onHide={() => setSent(null)} />}
        <form onSubmit={submit} className="grid gap-4 sm:grid-cols-2">
          <div>
            <Label htmlFor={ids.email}>Email</Label>
            <Input id={ids.email} name="email" type="email" required autoComplete="off" className="mt-1.5" />
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
          <div className="flex flex-wrap items-center gap-3 sm:col-span-2">
            <Button type="submit" variant="primary" pending={inviteUser.pending}>
              Send invitation
            </Button>
          </div>
          {error && (
            <Notice tone="error" className="sm:col-span-2">
              {error}
            </Notice>
          )}
        </form>
      </CardBody>
    </Card>
  );
}
