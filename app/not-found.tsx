import Link from "next/link";
import { Logo } from "@/components/shell/logo";
import { buttonClasses } from "@/components/ui/button";

export default function NotFound() {
  return (
    <main className="flex min-h-screen flex-col items-center justify-center px-4 text-center">
      <Logo />
      <p className="mt-8 text-sm font-semibold text-zinc-500">404</p>
      <h1 className="mt-2 text-2xl font-semibold tracking-tight text-zinc-900">Page not found</h1>
      <p className="mt-2 max-w-md text-sm text-zinc-600">
        There is no page at this address. It may have moved, or the link may be mistyped.
      </p>
      <Link href="/" className={buttonClasses("primary", "md", "mt-6")}>
        Go to Tillflow
      </Link>
    </main>
  );
}
