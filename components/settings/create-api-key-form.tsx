"use client";

import { useId, useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { CopyButton } from "@/components/ui/copy-button";
import { FieldHint, Input, Label, Select } from "@/components/ui/form";
import { Notice } from "@/components/ui/notice";
import { useServerAction } from "@/components/ui/hooks/use-server-action";
import { createApiKeyAction } from "@/lib/actions/api-keys/create-api-key";
import type { Role } from "@/lib/identity/roles";
import { ROLE_OPTIONS, isRole } from "./role-options";

interface CreatedKey {
  key: string;
  name: string;
}

/** Admin-only: name a key, pick its role, and see the full key exactly once. */
export function CreateApiKeyForm() {
  const [role, setRole] = useState<Role>("viewer");
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<CreatedKey | null>(null);
  const createApiKey = useServerAction(createApiKeyAction);
  const ids = { name: useId(), role: useId(), roleHint: useId(), key: useId() };

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const name = String(new FormData(form).get("name") ?? "");
    setError(null);
    createApiKey.run({ name, role }, (result) => {
      if (!result.ok) return setError(result.error);
      setCreated({ key: result.data.key, name: result.data.name });
      form.reset();
      setRole("viewer");
    });
  }

  const roleDescription = ROLE_OPTIONS.find((o) => o.value === role)?.description;

  return (
    <Card>
      <CardHeader
        title="Create an API key"
        description="For your store, scripts and other apps calling the Tillflow API with 'Authorization: Bearer <key>'."
      />
      <CardBody className="space-y-4">
        {created && (
          <div className="rounded-lg border border-amber-300 bg-amber-50 p-4" data-testid="new-api-key">
            <p className="text-sm font-semibold text-amber-900" role="status">
              Your new key “{created.name}” is ready.
            </p>
            <p className="mt-1 text-sm text-amber-900">
              Copy it now and store it somewhere safe: this is the only time Tillflow shows it. If you lose
              it, revoke it and create another.
            </p>
            <div className="mt-3 flex flex-wrap items-center gap-2">
              <label htmlFor={ids.key} className="sr-only">
                New API key
              </label>
              <Input
                id={ids.key}
                readOnly
                value={created.key}
                onFocus={(e) => e.currentTarget.select()}
                fullWidth={false}
                className="min-w-0 flex-1 font-mono text-xs"
              />
              <CopyButton value={created.key} label="Copy key" size="md" />
            </div>
            <Button size="sm" variant="ghost" className="mt-3" onClick={() => setCreated(null)}>
              I have copied it — hide the key
            </Button>
          </div>
        )}
        <form onSubmit={submit} className="flex flex-wrap items-start gap-4">
          <div className="min-w-56 flex-1">
            <Label htmlFor={ids.name}>Name</Label>
            <Input
              id={ids.name}
              name="name"
              required
              maxLength={100}
              placeholder="e.g. Storefront sync"
              className="mt-1.5"
            />
          </div>
          <div className="w-full sm:w-64">
            <Label htmlFor={ids.role}>Role</Label>
            <Select
              id={ids.role}
              value={role}
              aria-describedby={ids.roleHint}
              onChange={(e) => {
                if (isRole(e.target.value)) setRole(e.target.value);
              }}
              className="mt-1.5"
            >
              {ROLE_OPTIONS.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </Select>
            <FieldHint id={ids.roleHint}>{roleDescription}</FieldHint>
          </div>
          <div className="pt-6.5">
            <Button type="submit" variant="primary" pending={createApiKey.pending}>
              Create key
            </Button>
          </div>
        </form>
        {error && <Notice tone="error">{error}</Notice>}
      </CardBody>
    </Card>
  );
}
