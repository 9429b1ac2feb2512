import fs from "node:fs";
import prettier from "prettier";
import { envExample, envTables, withTables } from "@/lib/config/docs";

/** What `npm run env:docs` writes, by file: formatted as `prettier --check` wants it. */
export async function renderEnvDocs(): Promise<Record<string, string>> {
  const deployment = "docs/deployment.md";
  const options = (await prettier.resolveConfig(deployment)) ?? {};
  const doc = await prettier.format(withTables(fs.readFileSync(deployment, "utf8"), envTables()), {
    ...options,
    filepath: deployment,
  });
  return { [deployment]: doc, ".env.example": envExample() };
}
