"use client";

import { useId, useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/form";
import { useServerAction } from "@/components/ui/hooks/use-server-action";
import { updateCredentialHostsAction } from "@/lib/actions/credentials/update-credential-hosts";
import { typedHosts } from "./create-credential-form";

/**
 * Admins: the hosts a credential may be sent to, edited in place. Every flow that sends it is held
 * to the new list from its next step on; a refusal's sentence shows beside the field.
 */
export function EditHostsButton({
  id,
  name,
  allowedHosts,
}: {
  id: string;
  name: string;
  allowedHosts: string[];
}) {
  const [open, setOpen] = useState(false);
  const [text, setText] = useState(allowedHosts.join(", "));
  const [error, setError] = useState<string | null>(null);
  const updateCredentialHosts = useServerAction(updateCredentialHostsAction);
  const inputId = useId();

  if (!open)
    return (
      <Button size="sm" onClick={() => setOpen(true)} aria-label={`Edit the hosts of ${name}`}>
        Edit hosts
      </Button>
    );

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError(null);
    updateCredentialHosts.run({ id, allowedHosts: typedHosts(text) }, (result) => {
      if (!result.ok) setError(result.error);
      else setOpen(false);
    });
  }

  return (
    <form onSubmit={submit} className="inline-flex flex-col items-end gap-1">
      <label htmlFor={inputId} className="sr-only">
        Allowed hosts of {name}
      </label>
      <Input
        id={inputId}
        value={text}
        autoComplete="off"
        placeholder="api.example.com, *.example.com"
        onChange={(e) => setText(e.target.value)}
        className="w-64"
      />
      <span className="inline-flex gap-2">
        <Button size="sm" type="button" onClick={() => setOpen(false)}>
          Cancel
        </Button>
        <Button size="sm" type="submit" variant="primary" pending={updateCredentialHosts.pending}>
          Save hosts
        </Button>
      </span>
      {error && (
        <span role="alert" className="max-w-xs text-right text-xs text-red-700">
          {error}
        </span>
      )}
    </form>
  );
}
