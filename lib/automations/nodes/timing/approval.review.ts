import type { FlowReview, ReviewedStep } from "../types";

const peopleWord = (n: number) => (n === 1 ? "1 person" : `${n} people`);

/**
 * The ready issues of an Approval step's approver rules against the shop's teams and staff: a team
 * the shop does not have, or more people than could ever vote (it could only be rejected as "can
 * no longer be approved"). Read from the params as written, so a half-set rule says nothing yet.
 */
export function approverIssues({ node }: ReviewedStep, { facts }: FlowReview): string[] {
  if (!facts.approvers) return [];
  const rules = node.params.approvers;
  if (!Array.isArray(rules)) return [];
  const { teams, people } = facts.approvers;
  return rules.flatMap((rule: unknown): string[] => {
    if (typeof rule !== "object" || rule === null) return [];
    const { team, role, required } = rule as Record<string, unknown>;
    if (typeof required !== "number") return [];
    if (typeof team === "string") {
      const known = teams[team];
      if (!known)
        return [
          "This approval asks a team the shop does not have (deleted, or from another shop): choose one of Settings → Teams.",
        ];
      return required > known.size
        ? [
            `This approval asks ${required} from ${known.name}, but ${known.name} has ${peopleWord(known.size)}: it could never be approved.`,
          ]
        : [];
    }
    if (role === "admin" || role === "editor") {
      const could = people[role];
      const who = role === "admin" ? "admins" : "editors or admins";
      return required > could
        ? [`This approval asks ${required} ${who}, but the shop has ${could}: it could never be approved.`]
        : [];
    }
    return [];
  });
}
