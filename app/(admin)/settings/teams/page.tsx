import type { Metadata } from "next";
import { TeamForm } from "@/components/settings/team-form";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { requireCaller } from "@/lib/auth/session";
import { listMembers } from "@/lib/auth/users";
import { hasRole } from "@/lib/identity/roles";
import { listTeams } from "@/lib/teams/teams";

export const metadata: Metadata = { title: "Teams" };

/**
 * Settings → Teams (issue 53): teams of the shop's staff, such as Finance or Warehouse, that an
 * Approval step can ask for ("1 from Finance"). Everyone reads them; admins add, change and delete.
 */
export default async function TeamsPage() {
  const caller = await requireCaller();
  const isAdmin = hasRole(caller.role, "admin");
  const [teams, members] = await Promise.all([listTeams(caller.tenant.id), listMembers(caller.tenant.id)]);
  const staff = members.map((m) => ({ userId: m.userId, email: m.email, name: m.name }));

  return (
    <div className="space-y-6">
      {isAdmin && (
        <Card>
          <CardHeader
            title="Add a team"
            description="A name and some of the shop's staff. Approval steps can then ask for people from it, such as “1 from Finance”."
          />
          <CardBody>
            <TeamForm staff={staff} />
          </CardBody>
        </Card>
      )}
      {teams.length === 0 ? (
        <Card>
          <EmptyState title="No teams yet">
            <p>
              {isAdmin
                ? "Add one above, then ask for its people in an Approval step."
                : "An admin can add teams, such as Finance, that Approval steps ask for."}
            </p>
          </EmptyState>
        </Card>
      ) : (
        teams.map((team) => (
          <Card key={team.id}>
            <CardHeader
              title={team.name}
              description={
                team.members.length === 0
                  ? "Nobody yet."
                  : `${team.members.length === 1 ? "1 person" : `${team.members.length} people`}: ${team.members.map((m) => m.name || m.email).join(", ")}.`
              }
            />
            {isAdmin && (
              <CardBody>
                <TeamForm
                  team={{ id: team.id, name: team.name, memberIds: team.members.map((m) => m.userId) }}
                  staff={staff}
                />
              </CardBody>
            )}
          </Card>
        ))
      )}
    </div>
  );
}
