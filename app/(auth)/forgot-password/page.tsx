import type { Metadata } from "next";
import Link from "next/link";
import { AuthCard } from "@/components/auth/auth-card";
import { ForgotPasswordForm } from "@/components/auth/password-reset-forms";

export const metadata: Metadata = { title: "Forgot password" };

export default function ForgotPasswordPage() {
  return (
    <AuthCard title="Set a new password" lead="We email you a link that lets you choose a new one.">
      <ForgotPasswordForm />
      <p className="mt-5 text-center text-sm">
        <Link href="/sign-in" className="underline">
          Back to sign-in
        </Link>
      </p>
    </AuthCard>
  );
}
