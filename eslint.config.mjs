import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

/**
 * lib/automations' floors (its README, "Folders, floor by floor"): a folder imports only folders on
 * lower floors, so the engine never reaches up into what is built on it. Type-only imports are
 * free (they leave nothing at run time); tests beside the code may reach anywhere.
 */
const AUTOMATION_FLOORS = {
  graph: 1,
  tokens: 1,
  caps: 1,
  store: 2,
  nodes: 3,
  work: 3,
  review: 4,
  engine: 5,
  editor: 5,
  waits: 6,
  webhooks: 6,
  insights: 6,
  performance: 6,
  ai: 6,
  lifecycle: 7,
  "dry-run": 8,
  runs: 8,
  schedules: 8,
  brake: 8,
  backtest: 9,
};

/** Files that import up a floor for a reason their comment gives (issue 48 will move them). */
const FLOOR_EXCEPTIONS = [
  // A platform job's step records the events it causes through the engine's one start.
  "lib/automations/nodes/platform/platform.execute.ts",
];

const floorRules = Object.entries(AUTOMATION_FLOORS).flatMap(([folder, floor]) => {
  const above = Object.entries(AUTOMATION_FLOORS)
    .filter(([other, otherFloor]) => other !== folder && otherFloor >= floor)
    .map(([other]) => other);
  if (above.length === 0) return [];
  return {
    files: [`lib/automations/${folder}/**/*.{ts,tsx}`],
    ignores: ["**/*.test.{ts,tsx}", "**/*.fixtures.ts", ...FLOOR_EXCEPTIONS],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: above.flatMap((other) => [
                `@/lib/automations/${other}`,
                `@/lib/automations/${other}/**`,
                `**/../${other}`,
                `**/../${other}/**`,
              ]),
              allowTypeImports: true,
              message: `lib/automations/${folder}/ is on floor ${floor}: it imports only folders on lower floors (lib/automations/README.md).`,
            },
          ],
        },
      ],
    },
  };
});

const config = [
  ...nextVitals,
  ...nextTs,
  {
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  {
    // The floors run one way: lib/ is the ground the app stands on and never imports what stands
    // on it (lib/README.md).
    files: ["lib/**/*.{ts,tsx,mjs}"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: [
                "@/components/**",
                "@/app/**",
                "@/worker/**",
                "@/server/**",
                "@/bin/**",
                "@/scripts/**",
                "@/bench/**",
                "@/tests/**",
                "**/../components/**",
                "**/../app/**",
              ],
              message:
                "lib/ never imports components/, app/ or the processes built on it: move what both need into lib/.",
            },
          ],
        },
      ],
    },
  },
  ...floorRules,
  {
    ignores: [
      ".next/**",
      ".data/**",
      "drizzle/**",
      "node_modules/**",
      "next-env.d.ts",
      "test-results/**",
      "playwright-report/**",
    ],
  },
];

export default config;
