import type { Metadata } from "next";
import { AuthCard } from "@/components/auth/auth-card";
import { ResetPasswordForm } from "@/components/auth/password-reset-forms";

export const metadata: Metadata = { title: "Set a new password" };

/** A reset link's page. The token is checked when the form is sent (a GET only shows the form). */
export default async function ResetPasswordPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  return (
    <AuthCard title="Set a new password">
      <ResetPasswordForm token={token} />
    </AuthCard>
  );
}
