import type { Metadata } from "next";
import { InvitationActions } from "@/components/settings/invitation-actions";
import { InviteUserForm } from "@/components/settings/invite-user-form";
import { MemberRoleForm } from "@/components/settings/member-role-form";
import { RemoveMemberButton } from "@/components/settings/remove-member-button";
import { RoleBadge } from "@/components/shell/role-badge";
import { Badge } from "@/components/ui/badge";
import { Card, CardHeader } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { RelativeTime } from "@/components/ui/relative-time";
import { TBody, TD, TH, THead, TR, Table } from "@/components/ui/table";
import { hasRole } from "@/lib/identity/roles";
import { requireCaller } from "@/lib/auth/session";
import { listInvitations } from "@/lib/auth/invitations";
import { listMembers } from "@/lib/auth/users";

export const metadata: Metadata = { title: "Users" };

export default async function UsersPage() {
  const caller = await requireCaller();
  if (!hasRole(caller.role, "admin")) {
    return (
      <Card>
        <EmptyState title="Only an admin can manage users.">
          <p>
            You are signed in as {caller.role === "editor" ? "an editor" : "a viewer"}. If someone needs
            access to {caller.tenant.name}, or a different role, ask one of the shop&apos;s admins.
          </p>
        </EmptyState>
      </Card>
    );
  }

  const [members, invitations] = await Promise.all([
    listMembers(caller.tenant.id),
    listInvitations(caller.tenant.id),
  ]);
  const selfId = caller.actor.kind === "user" ? caller.actor.userId : null;

  return (
    <div className="space-y-6">
      <InviteUserForm />
      {invitations.length > 0 && (
        <Card>
          <CardHeader
            title="Pending invitations"
            description="Sent but not accepted yet. A link works for 7 days; re-sending makes a new one."
          />
          <Table caption="Pending invitations">
            <THead>
              <TR>
                <TH>Email</TH>
                <TH>Role</TH>
                <TH>Sent</TH>
                <TH align="right">
                  <span className="sr-only">Actions</span>
                </TH>
              </TR>
            </THead>
            <TBody>
              {invitations.map((invitation) => (
                <TR key={invitation.id} data-testid="invitation-row">
                  <TD>
                    <p className="font-medium text-zinc-900">{invitation.email}</p>
                    {invitation.expired && <p className="text-xs text-amber-700">Expired: re-send it.</p>}
                  </TD>
                  <TD>
                    <RoleBadge role={invitation.role} />
                  </TD>
                  <TD className="whitespace-nowrap text-zinc-500">
                    <RelativeTime value={invitation.createdAt} />
                  </TD>
                  <TD align="right">
                    <InvitationActions id={invitation.id} email={invitation.email} />
                  </TD>
                </TR>
              ))}
            </TBody>
          </Table>
        </Card>
      )}
      <Card>
        <CardHeader title="Members" description={`Everyone who can sign in to ${caller.tenant.name}.`} />
        <Table caption="Members">
          <THead>
            <TR>
              <TH>User</TH>
              <TH>Role</TH>
              <TH>Added</TH>
              <TH align="right">
                <span className="sr-only">Actions</span>
              </TH>
            </TR>
          </THead>
          <TBody>
            {members.map((member) => {
              const isSelf = member.userId === selfId;
              return (
                <TR key={member.userId} data-testid="member-row">
                  <TD>
                    <p className="font-medium text-zinc-900">
                      {member.name || member.email} {isSelf && <Badge className="ml-1">You</Badge>}
                    </p>
                    <p className="text-xs text-zinc-500">{member.email}</p>
                  </TD>
                  <TD>
                    {isSelf ? (
                      <span className="inline-flex items-center gap-2">
                        <RoleBadge role={member.role} />
                        <span className="text-xs text-zinc-500">Another admin can change your role.</span>
                      </span>
                    ) : (
                      <MemberRoleForm userId={member.userId} email={member.email} current={member.role} />
                    )}
                  </TD>
                  <TD className="whitespace-nowrap text-zinc-500">
                    <RelativeTime value={member.joinedAt} />
                  </TD>
                  <TD align="right">
                    {!isSelf && (
                      <RemoveMemberButton
                        userId={member.userId}
                        email={member.email}
                        shop={caller.tenant.name}
                      />
                    )}
                  </TD>
                </TR>
              );
            })}
          </TBody>
        </Table>
        {members.length === 0 && <EmptyState title="No members" />}
      </Card>
    </div>
  );
}
