import { defineConfig } from "drizzle-kit";
import { config } from "./lib/config/config";

export default defineConfig({
  dialect: "postgresql",
  schema: "./lib/db/schema/index.ts",
  out: "./drizzle",
  dbCredentials: { url: config().DATABASE_URL ?? "postgres://localhost/tillflow" },
});
