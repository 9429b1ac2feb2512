import { FAVICON_SVG } from "@/components/shell/favicon";

/**
 * GET /favicon.ico: the same icon the pages name inline. A browser may still ask for this path,
 * for instance before a dynamic page's streamed metadata has named the icon; it gets the icon,
 * not a 404 in its console.
 */
export function GET() {
  return new Response(FAVICON_SVG, {
    headers: { "content-type": "image/svg+xml", "cache-control": "public, max-age=86400" },
  });
}
