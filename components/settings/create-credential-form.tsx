"use client";

import { useId, useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { FieldHint, Input, Label, Select } from "@/components/ui/form";
import { Notice } from "@/components/ui/notice";
import { useServerAction } from "@/components/ui/hooks/use-server-action";
import { createCredentialAction } from "@/lib/actions/credentials/create-credential";
import {
  CREDENTIAL_KINDS,
  KIND_LABELS,
  masked,
  STORE_WRITE_KINDS,
  type CredentialKind,
} from "@/lib/credentials/kinds";
import { needsHosts } from "@/lib/credentials/hosts";
import { typedValueProblem } from "./credential-problem";
import {
  CredentialValueFields,
  EMPTY_VALUE,
  credentialValue,
  type CredentialValue,
} from "./credential-value-fields";

function isKind(value: string): value is CredentialKind {
  return (CREDENTIAL_KINDS as readonly string[]).includes(value);
}

/** The hosts as typed in the field: one per line or comma-separated. */
export function typedHosts(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .map((host) => host.trim())
    .filter(Boolean);
}

/**
 * Admins: name a credential, pick its kind, type its value once, and name the hosts it may be
 * sent to. `proposedHost` (opened from an HTTP step's "Manage credentials") is the first host.
 */
export function CreateCredentialForm({ proposedHost }: { proposedHost?: string }) {
  const [name, setName] = useState("");
  const [hosts, setHosts] = useState(proposedHost ?? "");
  const [hostsError, setHostsError] = useState<string | null>(null);
  const [kind, setKind] = useState<CredentialKind>("bearer");
  const [value, setValue] = useState<CredentialValue>(EMPTY_VALUE);
  const [valueError, setValueError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const createCredential = useServerAction(createCredentialAction);
  const ids = { name: useId(), kind: useId(), kindHint: useId(), hosts: useId(), hostsHint: useId() };

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError(null);
    setSaved(null);
    const problem = typedValueProblem(kind, value);
    setValueError(problem);
    if (problem) return;
    setHostsError(null);
    createCredential.run(
      {
        name,
        kind,
        value: credentialValue(kind, value),
        ...(needsHosts(kind) ? { allowedHosts: typedHosts(hosts) } : {}),
      },
      (result) => {
        if (!result.ok) {
          const onValue = result.issues?.find((issue) => issue.path === "value");
          const onHosts = result.issues?.find((issue) => issue.path?.startsWith("allowedHosts"));
          if (onValue) setValueError(onValue.message.replace(/^value: /, ""));
          if (onHosts) setHostsError(onHosts.message.replace(/^allowedHosts(\.\d+)?: /, ""));
          if (!onValue && !onHosts) setError(result.error);
          return;
        }
        // The value leaves the page as soon as it is stored: nothing shows or keeps it after this.
        setValue(EMPTY_VALUE);
        setName("");
        setHosts("");
        setSaved(`Saved “${result.data.name}” (${masked(result.data.last4)}). Flows can now use it by name.`);
      },
    );
  }

  return (
    <Card>
      <CardHeader
        title="Add a credential"
        description="An API key, token or signing secret a flow needs. Steps refer to it by name; its value stays here."
      />
      <CardBody className="space-y-4">
        <form onSubmit={submit} noValidate className="grid gap-4 sm:grid-cols-2">
          <div>
            <Label htmlFor={ids.name}>Name</Label>
            <Input
              id={ids.name}
              name="name"
              required
              maxLength={100}
              autoComplete="off"
              placeholder="e.g. Warehouse API"
              value={name}
              onChange={(e) => setName(e.target.value)}
              className="mt-1.5"
            />
          </div>
          <div>
            <Label htmlFor={ids.kind}>Kind</Label>
            <Select
              id={ids.kind}
              value={kind}
              aria-describedby={ids.kindHint}
              onChange={(e) => {
                if (!isKind(e.target.value)) return;
                setKind(e.target.value);
                setValue(EMPTY_VALUE);
                setValueError(null);
              }}
              className="mt-1.5"
            >
              {/* A store's write credential is made with its connection (Settings → Connections), host and all. */}
              {CREDENTIAL_KINDS.filter((k) => !(STORE_WRITE_KINDS as readonly string[]).includes(k)).map(
                (k) => (
                  <option key={k} value={k}>
                    {KIND_LABELS[k].label}
                  </option>
                ),
              )}
            </Select>
            <FieldHint id={ids.kindHint}>{KIND_LABELS[kind].hint}</FieldHint>
          </div>
          <div className="sm:col-span-2">
            <CredentialValueFields kind={kind} value={value} error={valueError} onChange={setValue} />
          </div>
          {needsHosts(kind) && (
            <div className="sm:col-span-2">
              <Label htmlFor={ids.hosts}>Allowed hosts</Label>
              <Input
                id={ids.hosts}
                name="allowedHosts"
                required
                autoComplete="off"
                placeholder="e.g. api.example.com, *.example.com"
                value={hosts}
                aria-describedby={ids.hostsHint}
                aria-invalid={hostsError ? true : undefined}
                onChange={(e) => setHosts(e.target.value)}
                className="mt-1.5"
              />
              <FieldHint id={ids.hostsHint} className={hostsError ? "text-red-700" : undefined}>
                {hostsError ??
                  "The hosts an HTTP step may send it to, comma-separated; *.example.com covers its subdomains. Any other host is refused before anything is sent."}
              </FieldHint>
            </div>
          )}
          <div className="sm:col-span-2">
            <Button type="submit" variant="primary" pending={createCredential.pending}>
              Save credential
            </Button>
          </div>
        </form>
        {error && <Notice tone="error">{error}</Notice>}
        {saved && <Notice tone="success">{saved}</Notice>}
      </CardBody>
    </Card>
  );
}
