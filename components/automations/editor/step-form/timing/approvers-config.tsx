"use client";

import { createContext, useContext, useId, type ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { FieldHint, Input, Label, Select } from "@/components/ui/form";
import { MAX_APPROVER_RULES, MAX_REQUIRED } from "@/lib/automations/nodes/timing/approval";
import { FieldError } from "../field";
import { withParam } from "../raw-values";

/**
 * The Approval step's quorum (issue 53): lines of "so many people of a role, or of a team", every
 * one of which must be met by different people, and whether one rejection or a majority rejects.
 * No lines: "Who decides" alone decides, one person of that role, as before. The shop's teams come
 * from the editor's first paint (`facts.approvers.teams`) through `EditorTeamsProvider`.
 */

export interface EditorTeam {
  id: string;
  name: string;
  size: number;
}

const Teams = createContext<readonly EditorTeam[]>([]);

export function EditorTeamsProvider({
  teams,
  children,
}: {
  teams: readonly EditorTeam[];
  children: ReactNode;
}) {
  return <Teams.Provider value={teams}>{children}</Teams.Provider>;
}

type Rule = { role: "editor" | "admin"; required: number } | { team: string; required: number };

function rulesOf(value: unknown): Rule[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item: unknown): Rule[] => {
    if (typeof item !== "object" || item === null) return [];
    const { role, team, required } = item as Record<string, unknown>;
    const n = typeof required === "number" ? required : 1;
    if (role === "admin" || role === "editor") return [{ role, required: n }];
    if (typeof team === "string") return [{ team, required: n }];
    return [];
  });
}

const whoOf = (rule: Rule) => ("team" in rule ? `team:${rule.team}` : `role:${rule.role}`);

function ruleFrom(who: string, required: number): Rule {
  if (who.startsWith("team:")) return { team: who.slice(5), required };
  return { role: who === "role:admin" ? "admin" : "editor", required };
}

export interface ApproversConfigProps {
  params: Record<string, unknown>;
  /** `paramErrors`' messages for `approvers` and `reject`. */
  errors: Record<string, string>;
  disabled: boolean;
  onChange(params: Record<string, unknown>): void;
}

export function ApproversConfig({ params, errors, disabled, onChange }: ApproversConfigProps) {
  const teams = useContext(Teams);
  const id = useId();
  const rules = rulesOf(params.approvers);
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;

  function save(next: Rule[]) {
    const withRules = withParam(params, "approvers", next.length ? next : undefined);
    onChange(next.length ? withRules : withParam(withRules, "reject", undefined));
  }

  function add() {
    const used = new Set(rules.map(whoOf));
    const free =
      ["role:admin", "role:editor", ...teams.map((t) => `team:${t.id}`)].find((who) => !used.has(who)) ??
      "role:admin";
    save([...rules, ruleFrom(free, 1)]);
  }

  return (
    <fieldset
      className="min-w-0 space-y-3 border-t border-zinc-200 pt-4"
      data-param="approvers"
      aria-describedby={[errors.approvers ? errorId : "", hintId].filter(Boolean).join(" ")}
    >
      <legend className="float-left mb-1 w-full text-sm font-semibold text-zinc-900">Who must approve</legend>
      <p id={hintId} className="clear-left text-xs text-zinc-500">
        {rules.length === 0
          ? "One person of 'Who decides' is enough. Add lines to need several people, or people from a team (Settings → Teams)."
          : "Every line must be met, each by different people; one vote per person. 'Who decides' above no longer applies."}
      </p>
      {rules.length > 0 && (
        <ul className="space-y-2">
          {rules.map((rule, index) => {
            const who = whoOf(rule);
            const known = "team" in rule ? teams.some((t) => t.id === rule.team) : true;
            return (
              <li key={index} className="flex flex-wrap items-end gap-2" data-testid="approver-rule">
                <div className="w-20">
                  <Label htmlFor={`${id}-n-${index}`}>How many</Label>
                  <Input
                    id={`${id}-n-${index}`}
                    type="number"
                    min={1}
                    max={MAX_REQUIRED}
                    value={rule.required}
                    disabled={disabled}
                    className="mt-1"
                    onChange={(e) => {
                      const n = Number.parseInt(e.target.value, 10);
                      save(
                        rules.map((r, i) => (i === index ? { ...r, required: Number.isNaN(n) ? 1 : n } : r)),
                      );
                    }}
                  />
                </div>
                <div className="min-w-40 flex-1">
                  <Label htmlFor={`${id}-who-${index}`}>Of</Label>
                  <Select
                    id={`${id}-who-${index}`}
                    value={who}
                    disabled={disabled}
                    className="mt-1"
                    onChange={(e) =>
                      save(rules.map((r, i) => (i === index ? ruleFrom(e.target.value, r.required) : r)))
                    }
                  >
                    <option value="role:admin">Admins</option>
                    <option value="role:editor">Editors or admins</option>
                    {teams.map((team) => (
                      <option key={team.id} value={`team:${team.id}`}>
                        {`Team ${team.name} (${team.size === 1 ? "1 person" : `${team.size} people`})`}
                      </option>
                    ))}
                    {!known && <option value={who}>A team that no longer exists</option>}
                  </Select>
                </div>
                <Button
                  variant="ghost"
                  size="sm"
                  disabled={disabled}
                  aria-label={`Remove line ${index + 1}`}
                  onClick={() => save(rules.filter((_, i) => i !== index))}
                >
                  Remove
                </Button>
              </li>
            );
          })}
        </ul>
      )}
      <FieldError id={errorId}>{errors.approvers}</FieldError>
      {rules.length < MAX_APPROVER_RULES && (
        <Button variant="secondary" size="sm" disabled={disabled} onClick={add}>
          Add a line
        </Button>
      )}
      {rules.length > 0 && (
        <div className="max-w-xs">
          <Label htmlFor={`${id}-reject`}>Rejected when</Label>
          <Select
            id={`${id}-reject`}
            value={params.reject === "majority" ? "majority" : "any"}
            disabled={disabled}
            className="mt-1"
            aria-describedby={`${id}-reject-hint`}
            onChange={(e) =>
              onChange(withParam(params, "reject", e.target.value === "majority" ? "majority" : undefined))
            }
          >
            <option value="any">Anyone rejects</option>
            <option value="majority">Most of those asked reject</option>
          </Select>
          <FieldHint id={`${id}-reject-hint`}>
            When too few people are left to approve it (someone left a team), it follows &apos;Rejected&apos;
            at once.
          </FieldHint>
        </div>
      )}
    </fieldset>
  );
}
