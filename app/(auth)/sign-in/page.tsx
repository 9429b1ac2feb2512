import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { SignInForm } from "@/components/auth/sign-in-form";
import { Logo } from "@/components/shell/logo";
import { Notice } from "@/components/ui/notice";
import { currentCaller } from "@/lib/auth/session";

export const metadata: Metadata = { title: "Sign in" };

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ reset?: string }> }) {
  if (await currentCaller()) redirect("/dashboard");
  const { reset } = await searchParams;
  return (
    <main className="flex min-h-screen flex-col items-center justify-center px-4 py-12">
      <div className="w-full max-w-sm">
        <div className="mb-8 flex flex-col items-center text-center">
          <Logo />
          <h1 className="mt-6 text-xl font-semibold tracking-tight text-zinc-900">Sign in to your shop</h1>
          <p className="mt-1 text-sm text-zinc-600">Sign in with your staff email and password.</p>
        </div>
        {reset === "done" && (
          <Notice tone="success" className="mb-4">
            Your new password is set. Sign in with it.
          </Notice>
        )}
        <div className="rounded-xl border border-zinc-200 bg-white p-6 shadow-xs">
          <SignInForm />
          <p className="mt-4 text-center text-sm">
            <Link href="/forgot-password" className="text-zinc-600 underline">
              Forgot password?
            </Link>
          </p>
        </div>
        <p className="mt-6 text-center text-xs leading-5 text-zinc-500">
          There is no self sign-up: a shop admin invites staff under Settings → Users.
        </p>
      </div>
    </main>
  );
}
