import type { Metadata } from "next";
import type { ReactNode } from "react";
import { FAVICON_SVG } from "@/components/shell/favicon";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Tillflow", template: "%s · Tillflow" },
  description: "Automations for your shop: triggers, conditions, actions and waits that run durably.",
  // Inline, so a page needs no request for it; /favicon.ico serves the same icon to browsers that ask.
  icons: { icon: `data:image/svg+xml,${encodeURIComponent(FAVICON_SVG)}` },
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body className="min-h-screen font-sans">{children}</body>
    </html>
  );
}
