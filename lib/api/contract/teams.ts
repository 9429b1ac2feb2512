import { createTeamInput, updateTeamInput } from "@/lib/teams/teams";
import type { Endpoint } from "./endpoint";

/** Teams. */
export const teamsEndpoints: readonly Endpoint[] = [
  {
    method: "GET",
    path: "/api/v1/teams",
    summary: "List the shop's teams",
    description: "Every team with its members (`userId`, `email`, `name`), by name.",
    tag: "Teams",
    role: "viewer",
    ok: { status: 200, description: "`{ items, nextCursor: null }`." },
  },
  {
    method: "POST",
    path: "/api/v1/teams",
    summary: "Add a team",
    description:
      "A name (unique in the shop) and members among the shop's staff, by user id or email. An Approval step's `approvers` may ask `{ team: <id>, required }`.",
    tag: "Teams",
    role: "admin",
    body: createTeamInput,
    example: { name: "Finance", members: [] },
    ok: { status: 201, description: "The team." },
    errors: [409, 422],
  },
  {
    method: "PUT",
    path: "/api/v1/teams/{id}",
    summary: "Change a team",
    description:
      "A new name, and/or the full list of members (replacing the old one). Taking someone out takes their unused vote away from undecided approvals at once: one that can no longer be approved follows 'Rejected'.",
    tag: "Teams",
    role: "admin",
    body: updateTeamInput,
    example: { members: ["ana@example.com", "bo@example.com"] },
    ok: { status: 200, description: "The team." },
    errors: [409, 422],
  },
  {
    method: "DELETE",
    path: "/api/v1/teams/{id}",
    summary: "Delete a team",
    description: "Undecided approvals that asked it can no longer be approved and follow 'Rejected'.",
    tag: "Teams",
    role: "admin",
    ok: { status: 200, description: "`{ id, deleted: true }`." },
  },
];
