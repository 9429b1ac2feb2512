"use client";

import { useId, useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Select } from "@/components/ui/form";
import { useServerAction } from "@/components/ui/hooks/use-server-action";
import { changeUserRoleAction } from "@/lib/actions/users/change-user-role";
import type { Role } from "@/lib/identity/roles";
import { ROLE_OPTIONS, isRole } from "./role-options";

/** A member's role as a select with its own Save, for one row of the members table. */
export function MemberRoleForm({ userId, email, current }: { userId: string; email: string; current: Role }) {
  const [role, setRole] = useState<Role>(current);
  const [message, setMessage] = useState<{ error: boolean; text: string } | null>(null);
  const changeUserRole = useServerAction(changeUserRoleAction);
  const selectId = useId();

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setMessage(null);
    changeUserRole.run({ userId, role }, (result) => {
      setMessage(result.ok ? { error: false, text: "Saved." } : { error: true, text: result.error });
    });
  }

  return (
    <form onSubmit={submit} className="flex flex-wrap items-center gap-2">
      <label htmlFor={selectId} className="sr-only">
        Role of {email}
      </label>
      <Select
        id={selectId}
        value={role}
        onChange={(e) => {
          if (isRole(e.target.value)) setRole(e.target.value);
          setMessage(null);
        }}
        controlSize="sm"
        fullWidth={false}
        className="w-32"
      >
        {ROLE_OPTIONS.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </Select>
      <Button
        type="submit"
        size="sm"
        pending={changeUserRole.pending}
        disabled={role === current}
        aria-label={`Save role of ${email}`}
      >
        Save
      </Button>
      {message && (
        <span
          role={message.error ? "alert" : "status"}
          className={message.error ? "text-xs text-red-700" : "text-xs text-emerald-700"}
        >
          {message.text}
        </span>
      )}
    </form>
  );
}
