/*
 * `import "server-only"` marks a module that must never reach the browser: Next.js refuses to
 * build a client component that imports one (its compiler checks the import). Outside Next.js —
 * the worker, the CLI, the custom server's own routes, the tests — tsconfig.json's `paths` (and
 * vitest.config.ts's alias) point the marker here, to a module that does nothing.
 */
export {};
