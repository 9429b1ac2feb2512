import fs from "node:fs";
import path from "node:path";
import { expect, test } from "vitest";
import { metrics } from "./metrics";

// The Grafana dashboard and the alert rules in docs/grafana/ name only metrics this code exports,
// so renaming one without them fails here, not in an operator's empty panel.
const ROOT = path.resolve(import.meta.dirname, "../..");
const read = (file: string) => fs.readFileSync(path.join(ROOT, "docs/grafana", file), "utf8");

test("the dashboard and the alert rules name only exported metrics, and the dashboard is valid JSON", async () => {
  const dashboard = JSON.parse(read("tillflow-dashboard.json")) as {
    panels: { targets: { expr: string }[] }[];
  };
  const exprs = [
    ...dashboard.panels.flatMap((p) => p.targets.map((t) => t.expr)),
    ...[...read("tillflow-alerts.yml").matchAll(/expr: (.+)/g)].map((m) => m[1]!),
  ];
  const exported = new Set((await metrics().registry.getMetricsAsJSON()).map((m) => m.name));
  const named = exprs.flatMap((e) => [...e.matchAll(/\b(tillflow_\w+|process_\w+)\b/g)].map((m) => m[1]!));
  expect(named.length).toBeGreaterThan(10);
  for (const name of named) expect(exported, name).toContain(name.replace(/_(bucket|count|sum)$/, ""));
});
