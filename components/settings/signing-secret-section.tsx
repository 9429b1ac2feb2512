"use client";

import { useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { ConfirmButton } from "@/components/ui/confirm-dialog";
import { CopyButton } from "@/components/ui/copy-button";
import { Input } from "@/components/ui/form";
import { Notice } from "@/components/ui/notice";
import { useServerAction, type ServerAnswer } from "@/components/ui/hooks/use-server-action";
import { rotateSigningSecretAction } from "@/lib/actions/settings/rotate-signing-secret";
import { showSigningSecretAction } from "@/lib/actions/settings/show-signing-secret";
import type { SigningSecretStatus } from "@/lib/credentials/signing-secret";

/**
 * Settings → Shop → Signing secret. Every HTTP request a flow sends is signed with it; an admin
 * sees it in full once (the first "Show secret", or right after a rotation), afterwards only its
 * last 4 characters. Editors and viewers see that it exists, never the value.
 */
export function SigningSecretSection({
  status,
  canManage,
}: {
  status: SigningSecretStatus;
  canManage: boolean;
}) {
  const [revealed, setRevealed] = useState<{ secret: string; rotated: boolean } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const show = useServerAction(showSigningSecretAction);
  const rotate = useServerAction(rotateSigningSecretAction);
  const pending = show.pending || rotate.pending;
  const secretId = useId();

  function run(verb: "show" | "rotate") {
    setError(null);
    const then = (result: ServerAnswer<{ secret: string }>) => {
      if (!result.ok) return setError(result.error);
      setRevealed({ secret: result.data.secret, rotated: verb === "rotate" });
    };
    if (verb === "show") show.run({}, then);
    else rotate.run({}, then);
  }

  return (
    <Card>
      <CardHeader
        title="Signing secret"
        description={
          <>
            Every HTTP request your flows send is signed with this secret, so the app receiving it can check
            that it really came from this shop and was not changed on the way. The signature follows{" "}
            <a
              href="https://www.standardwebhooks.com"
              className="font-medium text-indigo-700 underline underline-offset-2 hover:text-indigo-900"
            >
              Standard Webhooks
            </a>
            , which many apps and libraries can check.
          </>
        }
      />
      <CardBody className="space-y-4">
        {revealed && (
          <div className="rounded-lg border border-amber-300 bg-amber-50 p-4" data-testid="signing-secret">
            <p className="text-sm font-semibold text-amber-900" role="status">
              {revealed.rotated ? "Your new signing secret is ready." : "Here is your signing secret."}
            </p>
            <p className="mt-1 text-sm text-amber-900">
              Copy it now and give it to the apps that check your requests: this is the only time Tillflow
              shows it. If you lose it, rotate it and give them the new one.
            </p>
            <div className="mt-3 flex flex-wrap items-center gap-2">
              <label htmlFor={secretId} className="sr-only">
                Signing secret
              </label>
              <Input
                id={secretId}
                readOnly
                value={revealed.secret}
                onFocus={(e) => e.currentTarget.select()}
                fullWidth={false}
                className="min-w-0 flex-1 font-mono text-xs"
              />
              <CopyButton value={revealed.secret} label="Copy secret" size="md" />
            </div>
            <Button size="sm" variant="ghost" className="mt-3" onClick={() => setRevealed(null)}>
              I have copied it — hide the secret
            </Button>
          </div>
        )}
        <p className="text-sm text-zinc-700">
          {status.unreadable ? (
            "The stored secret can no longer be read (the server's encryption key changed). Rotate it to sign requests again."
          ) : status.lastFour ? (
            <>
              The secret ends in{" "}
              <code className="rounded bg-zinc-100 px-1.5 py-0.5 font-mono text-xs text-zinc-700">
                …{status.lastFour}
              </code>
              .
            </>
          ) : (
            "No secret yet: one is made the first time a flow sends a request, or when an admin shows it."
          )}
        </p>
        {canManage ? (
          <div className="flex flex-wrap items-center gap-3">
            {!status.shown && !status.unreadable && !revealed && (
              <Button variant="primary" pending={pending} onClick={() => run("show")}>
                Show secret
              </Button>
            )}
            {(status.shown || status.unreadable) && (
              <ConfirmButton
                label="Rotate secret"
                title="Rotate the signing secret?"
                confirmLabel="Rotate secret"
                size="md"
                pending={pending}
                onConfirm={() => run("rotate")}
              >
                Requests sent from now on are signed with a new secret, shown to you once. Apps still checking
                with the current secret will reject them until you give them the new one.
              </ConfirmButton>
            )}
          </div>
        ) : (
          <p className="text-sm text-zinc-600">Only an admin can see or rotate the signing secret.</p>
        )}
        {error && <Notice tone="error">{error}</Notice>}
      </CardBody>
    </Card>
  );
}
