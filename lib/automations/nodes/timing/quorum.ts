/**
 * An approval's quorum (issue 53), browser-safe and without I/O: the rules its step asked, how the
 * votes cast so far meet them, and what is still needed, in words.
 *
 * Terms:
 *
 *   rule       `{ role, required }` (so many people of that role or above) or `{ team, required }`
 *              (so many members of the team); a step saved before quorums, with `approverRole`
 *              alone, has one rule: one person of that role.
 *   voter      one person (`user:<id>`), or an API key no person made (`key:<id>`): one vote each,
 *              whichever channel it came by.
 *   candidate  someone who has not voted yet and still may (their role or team, not the run's
 *              starter when self-approval is off).
 *   met        each approving voter counts for one rule only (a bipartite matching), so "2 admins
 *              and 1 from Finance" needs three people even when an admin is in Finance.
 *   impossible the approving voters and every candidate together could not meet the rules any more.
 */

export type QuorumRule = { role: "editor" | "admin"; required: number } | { team: string; required: number };
export type RejectRule = "any" | "majority";

export interface Quorum {
  rules: QuorumRule[];
  reject: RejectRule;
  /** Whether the step asked a quorum (`approvers`); false for `approverRole` alone. */
  quorum: boolean;
  /** Whether the run's starter may vote. */
  allowSelfApproval: boolean;
}

function isRule(value: unknown): value is QuorumRule {
  if (typeof value !== "object" || value === null) return false;
  const rule = value as Record<string, unknown>;
  const required = rule.required;
  if (typeof required !== "number" || !Number.isInteger(required) || required < 1) return false;
  return rule.role === "editor" || rule.role === "admin" || typeof rule.team === "string";
}

/** The quorum an approval's step output asked (what the run paused with). */
export function quorumOf(asked: Record<string, unknown>): Quorum {
  const approvers = Array.isArray(asked.approvers) ? asked.approvers.filter(isRule) : [];
  if (approvers.length > 0)
    return {
      rules: approvers,
      reject: asked.reject === "majority" ? "majority" : "any",
      quorum: true,
      // A quorum step forbids self-approval unless it says otherwise.
      allowSelfApproval: asked.allowSelfApproval === true,
    };
  return {
    rules: [{ role: asked.approverRole === "admin" ? "admin" : "editor", required: 1 }],
    reject: "any",
    quorum: false,
    // Steps saved before the setting existed let anyone with the role decide, as before.
    allowSelfApproval: asked.allowSelfApproval !== false,
  };
}

/** Someone who voted or may vote, with the indexes of the rules they can count for. */
export interface Eligible {
  voter: string;
  rules: number[];
}

export interface Vote extends Eligible {
  decision: "approved" | "rejected";
}

/**
 * How many of `people` each rule can hold at once, each person counting for one rule only:
 * augmenting paths over the rules' slots (at most 10 rules of 10 people, so this stays tiny).
 */
export function matchedPerRule(people: number[][], required: number[]): number[] {
  const holders: number[][] = required.map(() => []);
  const place = (person: number, seen: Set<number>): boolean => {
    for (const rule of people[person] ?? []) {
      if (seen.has(rule) || required[rule] === undefined) continue;
      seen.add(rule);
      const held = holders[rule]!;
      if (held.length < required[rule]!) {
        held.push(person);
        return true;
      }
      for (const other of [...held]) {
        if (place(other, seen)) {
          held.splice(held.indexOf(other), 1);
          held.push(person);
          return true;
        }
      }
    }
    return false;
  };
  people.forEach((_, person) => place(person, new Set()));
  return holders.map((held) => held.length);
}

export type QuorumOutcome = "approved" | "rejected" | "impossible" | "pending";

export interface QuorumState {
  outcome: QuorumOutcome;
  /** Per rule: how many more approvals it needs (0 when met). */
  missing: number[];
  approvals: number;
  rejections: number;
}

/**
 * Where the votes stand: approved when every rule is met; rejected on one rejection (`any`) or
 * when more than half of everyone who voted or may still vote rejected (`majority`); impossible
 * when the approving voters and the candidates together cannot meet the rules (checked only for a
 * quorum step: a step with `approverRole` alone waits for its time-out, as before).
 */
export function quorumState(quorum: Quorum, votes: Vote[], candidates: Eligible[]): QuorumState {
  const required = quorum.rules.map((rule) => rule.required);
  const approving = votes.filter((v) => v.decision === "approved");
  const rejections = votes.length - approving.length;
  const held = matchedPerRule(
    approving.map((v) => v.rules),
    required,
  );
  const missing = required.map((n, i) => n - (held[i] ?? 0));
  const base = { missing, approvals: approving.length, rejections };
  if (missing.every((n) => n === 0)) return { ...base, outcome: "approved" };
  if (quorum.reject === "any" && rejections > 0) return { ...base, outcome: "rejected" };
  if (quorum.reject === "majority" && rejections * 2 > votes.length + candidates.length)
    return { ...base, outcome: "rejected" };
  if (quorum.quorum) {
    const could = matchedPerRule(
      [...approving, ...candidates].map((p) => p.rules),
      required,
    );
    if (could.some((n, i) => n < required[i]!)) return { ...base, outcome: "impossible" };
  }
  return { ...base, outcome: "pending" };
}

/** The reason a quorum step gives when it follows 'Rejected' early. */
export const IMPOSSIBLE_REASON = "can no longer be approved";

function plural(n: number, one: string, many: string): string {
  return n === 1 ? one : many;
}

/** "2 admins", "1 editor or admin", "1 from Finance": the people one rule asks for. */
function asked(rule: QuorumRule, n: number, teamName: (id: string) => string): string {
  if ("team" in rule) return `${n} from ${teamName(rule.team)}`;
  return rule.role === "admin"
    ? `${n} ${plural(n, "admin", "admins")}`
    : `${n} ${plural(n, "editor or admin", "editors or admins")}`;
}

/** "a, and b"; "a, b, and c": the parts of what is still needed. */
function listed(parts: string[]): string {
  if (parts.length <= 1) return parts.join("");
  return `${parts.slice(0, -1).join(", ")}, and ${parts.at(-1)}`;
}

/**
 * What is still needed, from whom: "1 of 2 admins, and 1 from Finance still needed" (1 more
 * admin of the 2 asked, and the one person asked from Finance); null when every rule is met.
 */
export function stillNeeded(
  rules: QuorumRule[],
  missing: number[],
  teamName: (id: string) => string,
): string | null {
  const parts = rules.flatMap((rule, i) => {
    const left = missing[i] ?? 0;
    if (left <= 0) return [];
    const all = asked(rule, rule.required, teamName);
    return [left === rule.required ? all : `${left} of ${all}`];
  });
  return parts.length ? `${listed(parts)} still needed` : null;
}

/** Who a quorum asks, in words: "2 admins and 1 from Finance". */
export function quorumAsks(rules: QuorumRule[], teamName: (id: string) => string): string {
  const parts = rules.map((rule) => asked(rule, rule.required, teamName));
  return parts.length <= 1 ? parts.join("") : `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}`;
}

export type ApproverView =
  { role: "editor" | "admin"; required: number } | { team: string; teamName: string; required: number };

/** One vote: who (an email, or "API key tf_ab…"), which way, when, with what note. */
export interface VoteView {
  by: string;
  decision: "approved" | "rejected";
  at: string;
  note: string | null;
}

/** A vote as stored (the `approval_votes` row's fields this needs). */
export interface StoredVote {
  voter: string;
  voterLabel: string;
  decision: "approved" | "rejected";
  rules: number[];
  note: string | null;
  createdAt: Date | string;
}

export interface QuorumSummary {
  /** The least role that may decide: admin when every rule asks admins, else editor. */
  approverRole: "editor" | "admin";
  approvers: ApproverView[];
  /** Who it asks, in words: "2 admins and 1 from Finance". */
  asks: string;
  reject: RejectRule;
  votes: VoteView[];
  /** While a quorum is pending: "1 of 2 admins, and 1 from Finance still needed"; null otherwise. */
  needed: string | null;
}

/** What an approval asks of whom, its votes, and (while pending) who is still needed. */
export function quorumSummary(
  asked: Record<string, unknown>,
  votes: StoredVote[],
  names: Map<string, string>,
  pending: boolean,
): QuorumSummary {
  const quorum = quorumOf(asked);
  const teamName = (id: string) => names.get(id) ?? "a deleted team";
  const state = quorumState(quorum, votes, []);
  return {
    approverRole: quorum.rules.every((rule) => "role" in rule && rule.role === "admin") ? "admin" : "editor",
    approvers: quorum.rules.map((rule) =>
      "team" in rule ? { team: rule.team, teamName: teamName(rule.team), required: rule.required } : rule,
    ),
    asks: quorumAsks(quorum.rules, teamName),
    reject: quorum.reject,
    votes: votes.map((v) => ({
      by: v.voterLabel,
      decision: v.decision,
      at: new Date(v.createdAt).toISOString(),
      note: v.note,
    })),
    // A step with `approverRole` alone needs its one person, which "who decides" already says.
    needed: pending && quorum.quorum ? stillNeeded(quorum.rules, state.missing, teamName) : null,
  };
}
