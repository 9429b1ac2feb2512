/**
 * `npm run env:docs`: writes docs/deployment.md's environment tables (between its markers) and
 * .env.example from lib/config/env.ts.
 */
import fs from "node:fs";
import { renderEnvDocs } from "./env-docs-render";

for (const [file, text] of Object.entries(await renderEnvDocs())) {
  fs.writeFileSync(file, text);
  console.log(`Wrote ${file}.`);
}
