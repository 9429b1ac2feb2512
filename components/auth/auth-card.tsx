import type { ReactNode } from "react";
import { Logo } from "@/components/shell/logo";

/** The frame of the pages outside the admin: sign-in, invitations, password reset. */
export function AuthCard({
  title,
  lead,
  children,
}: {
  title: string;
  lead?: ReactNode;
  children: ReactNode;
}) {
  return (
    <main className="flex min-h-screen flex-col items-center justify-center px-4 py-12">
      <div className="w-full max-w-sm">
        <div className="mb-8 flex flex-col items-center text-center">
          <Logo />
          <h1 className="mt-6 text-xl font-semibold tracking-tight text-zinc-900">{title}</h1>
          {lead && <p className="mt-1 text-sm text-zinc-600">{lead}</p>}
        </div>
        <div className="rounded-xl border border-zinc-200 bg-white p-6 shadow-xs">{children}</div>
      </div>
    </main>
  );
}
