"use client";

import { useId, useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { ConfirmButton } from "@/components/ui/confirm-dialog";
import { Input, Label } from "@/components/ui/form";
import { Notice } from "@/components/ui/notice";
import { useServerAction, type ServerAnswer } from "@/components/ui/hooks/use-server-action";
import { createTeamAction, deleteTeamAction, updateTeamAction } from "@/lib/actions/teams/teams";

export interface StaffOption {
  userId: string;
  email: string;
  name: string;
}

export interface TeamFormProps {
  /** The team to change; none to add one. */
  team?: { id: string; name: string; memberIds: string[] };
  staff: StaffOption[];
}

/**
 * Admin-only: a team's name and members (checkboxes over the shop's staff), saved at once; an
 * existing team can also be deleted. Taking someone out takes their unused vote away from
 * approvals that wait, which the hint says.
 */
export function TeamForm({ team, staff }: TeamFormProps) {
  const ids = { name: useId(), members: useId(), hint: useId() };
  const [name, setName] = useState(team?.name ?? "");
  const [chosen, setChosen] = useState<Set<string>>(new Set(team?.memberIds ?? []));
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const createTeam = useServerAction(createTeamAction);
  const updateTeam = useServerAction(updateTeamAction);
  const deleteTeam = useServerAction(deleteTeamAction);
  const pending = createTeam.pending || updateTeam.pending || deleteTeam.pending;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError(null);
    setSaved(null);
    const members = staff.filter((s) => chosen.has(s.userId)).map((s) => s.userId);
    const then = (result: ServerAnswer<{ name: string }>) => {
      if (!result.ok) return setError(result.error);
      setSaved(team ? `Saved ${result.data.name}.` : `Added ${result.data.name}.`);
      if (!team) {
        setName("");
        setChosen(new Set());
      }
    };
    if (team) updateTeam.run({ id: team.id, name, members }, then);
    else createTeam.run({ name, members }, then);
  }

  return (
    <form onSubmit={submit} className="space-y-4" aria-label={team ? `Team ${team.name}` : "New team"}>
      <div className="max-w-sm">
        <Label htmlFor={ids.name}>Team name</Label>
        <Input
          id={ids.name}
          value={name}
          onChange={(e) => setName(e.target.value)}
          required
          maxLength={80}
          placeholder="Finance"
          className="mt-1.5"
        />
      </div>
      <fieldset aria-describedby={ids.hint}>
        <legend className="text-sm font-medium text-zinc-900">Members</legend>
        <p id={ids.hint} className="mt-1 text-xs text-zinc-500">
          An Approval step can ask for a number of people from this team. Someone taken out loses their vote
          on approvals still waiting.
        </p>
        <ul className="mt-2 grid gap-2 sm:grid-cols-2">
          {staff.map((person) => (
            <li key={person.userId}>
              <label className="flex items-start gap-2 text-sm text-zinc-800">
                <input
                  type="checkbox"
                  className="mt-0.5 size-4 rounded border-zinc-300"
                  checked={chosen.has(person.userId)}
                  onChange={(e) =>
                    setChosen((all) => {
                      const next = new Set(all);
                      if (e.target.checked) next.add(person.userId);
                      else next.delete(person.userId);
                      return next;
                    })
                  }
                />
                <span className="min-w-0 break-words">
                  {person.name || person.email}
                  {person.name && <span className="block text-xs text-zinc-500">{person.email}</span>}
                </span>
              </label>
            </li>
          ))}
        </ul>
      </fieldset>
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" variant="primary" size="sm" pending={pending}>
          {team ? "Save team" : "Add team"}
        </Button>
        {team && (
          <ConfirmButton
            label="Delete"
            ariaLabel={`Delete the team ${team.name}`}
            title={`Delete ${team.name}?`}
            confirmLabel="Delete team"
            pending={pending}
            onConfirm={() => {
              setError(null);
              deleteTeam.run({ id: team.id }, (result) => {
                if (!result.ok) setError(result.error);
              });
            }}
          >
            Approvals waiting for someone from {team.name} can then no longer be approved: they follow
            &apos;Rejected&apos; at once. Steps that ask this team need another one before they run again.
          </ConfirmButton>
        )}
        <span role="status" className="text-xs text-zinc-600">
          {saved}
        </span>
      </div>
      {error && <Notice tone="error">{error}</Notice>}
    </form>
  );
}
