import type { Metadata } from "next";
import type { ReactNode } from "react";
import "./globals.css";

const FAVICON =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="8" fill="#18181b"/>' +
  '<path d="M9 10h6M9 16h14M17 22h6" stroke="#fff" stroke-width="2.5" stroke-linecap="round"/></svg>';

export const metadata: Metadata = {
  title: { default: "Tillflow", template: "%s · Tillflow" },
  description: "Automations for your shop: triggers, conditions, actions and waits that run durably.",
  // Inline, so the browser never asks for a /favicon.ico the app does not have (a 404 on every page).
  icons: { icon: `data:image/svg+xml,${encodeURIComponent(FAVICON)}` },
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body className="min-h-screen font-sans">{children}</body>
    </html>
  );
}
