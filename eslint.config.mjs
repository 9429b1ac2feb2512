import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

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
