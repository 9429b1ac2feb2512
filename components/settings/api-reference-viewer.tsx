"use client";

import { ApiReferenceReact } from "@scalar/api-reference-react";
import "@scalar/api-reference-react/style.css";

/*
 * Scalar's viewer, fitted to the admin: the app's own fonts (Scalar's come from its CDN, and the
 * admin must work offline), light only, no telemetry, no AI chat or MCP (both call Scalar's services). It reads
 * the document from this server, so it always shows the API this build serves.
 */
const FIT_TO_ADMIN = `
.scalar-app, .light-mode {
  --scalar-font: inherit;
  --scalar-font-code: ui-monospace, SFMono-Regular, Menlo, monospace;
  --scalar-radius: 0.375rem;
  --scalar-radius-lg: 0.75rem;
  --scalar-color-1: #18181b;
  --scalar-color-2: #52525b;
  --scalar-color-3: #71717a;
  --scalar-color-accent: #18181b;
  --scalar-background-1: #ffffff;
  --scalar-background-2: #fafafa;
  --scalar-background-3: #f4f4f5;
  --scalar-background-accent: #f4f4f5;
  --scalar-border-color: #e4e4e7;
}
`;

export default function ApiReferenceViewer({ url }: { url: string }) {
  return (
    <ApiReferenceReact
      configuration={{
        url,
        _integration: "nextjs",
        withDefaultFonts: false,
        telemetry: false,
        forceDarkModeState: "light",
        hideDarkModeToggle: true,
        hideClientButton: true,
        showDeveloperTools: "never",
        documentDownloadType: "json",
        mcp: { disabled: true },
        agent: { disabled: true },
        customCss: FIT_TO_ADMIN,
      }}
    />
  );
}
