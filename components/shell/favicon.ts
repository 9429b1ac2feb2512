/** The app's icon: inline in every page's metadata, and served at /favicon.ico (app/favicon.ico). */
export const FAVICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="8" fill="#18181b"/>' +
  '<path d="M9 10h6M9 16h14M17 22h6" stroke="#fff" stroke-width="2.5" stroke-linecap="round"/></svg>';
