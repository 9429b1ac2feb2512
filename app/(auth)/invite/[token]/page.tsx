import type { Metadata } from "next";
import Link from "next/link";
import { headers } from "next/headers";
import { AuthCard } from "@/components/auth/auth-card";
import { AcceptForm, NewLoginForm, SignInAndAcceptForm } from "@/components/auth/invitation-forms";
import { Button } from "@/components/ui/button";
import { signOut } from "@/lib/actions/auth/sign-out";
import { getAuth } from "@/lib/auth/auth";
import { viewInvitation } from "@/lib/auth/invitations";

export const metadata: Metadata = { title: "Invitation" };

/**
 * `/invite/<token>`: public, outside the admin. A bad token (unknown, used, revoked, expired) gets
 * its sentence, never an error page. A GET only shows: accepting takes a button (mail scanners
 * open links).
 */
export default async function InvitationPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const view = await viewInvitation(token);
  if (!view.ok) {
    return (
      <AuthCard title="This invitation cannot be used">
        <p className="text-sm text-zinc-700" data-testid="invitation-problem">
          {view.problem}
        </p>
        <p className="mt-4 text-sm">
          <Link href="/sign-in" className="underline">
            Go to sign-in
          </Link>
        </p>
      </AuthCard>
    );
  }
  const session = await getAuth().api.getSession({ headers: await headers() });
  const article = view.role === "admin" ? "an" : "a";
  const lead = `You are invited to ${view.shopName} as ${article} ${view.role}.`;

  if (!view.hasLogin) {
    return (
      <AuthCard title="Join the shop" lead={lead}>
        <NewLoginForm token={token} email={view.email} />
      </AuthCard>
    );
  }
  if (!session) {
    return (
      <AuthCard title="Join the shop" lead={lead}>
        <p className="mb-5 text-sm text-zinc-700">
          {view.email} already has a Tillflow login. Sign in with its password to accept.
        </p>
        <SignInAndAcceptForm token={token} email={view.email} />
      </AuthCard>
    );
  }
  if (session.user.email.toLowerCase() !== view.email) {
    return (
      <AuthCard title="Join the shop" lead={lead}>
        <p className="text-sm text-zinc-700" data-testid="invitation-problem">
          This invitation is for {view.email}, and you are signed in as {session.user.email}. Sign out, then
          sign in as {view.email} to accept it.
        </p>
        <form action={signOut} className="mt-5">
          <Button type="submit">Sign out</Button>
        </form>
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Join the shop" lead={lead}>
      <p className="mb-5 text-sm text-zinc-700">You are signed in as {view.email}.</p>
      <AcceptForm token={token} />
    </AuthCard>
  );
}
