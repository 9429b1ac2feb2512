import { OUTCOME_STYLE, swatchBackground } from "./outcomes";
import type { Outcome } from "@/lib/automations/insights/outcomes";

/** The SVG fill of each outcome: its colour, overlaid with its pattern in white. `prefix` keeps ids unique. */
export function OutcomePatternDefs({ prefix }: { prefix: string }) {
  return (
    <defs>
      {(Object.keys(OUTCOME_STYLE) as Outcome[]).map((outcome) => {
        const { color, pattern } = OUTCOME_STYLE[outcome];
        return (
          <pattern
            key={outcome}
            id={`${prefix}-${outcome}`}
            width="8"
            height="8"
            patternUnits="userSpaceOnUse"
          >
            <rect width="8" height="8" fill={color} />
            {pattern === "stripes" && <path d="M-2 2l4-4M0 8l8-8M6 10l4-4" stroke="#fff" strokeWidth="1.5" />}
            {pattern === "cross" && <path d="M0 0l8 8M8 0l-8 8" stroke="#fff" strokeWidth="1.2" />}
            {pattern === "dots" && <circle cx="4" cy="4" r="1.6" fill="#fff" />}
            {pattern === "lines" && <path d="M0 2h8M0 6h8" stroke="#fff" strokeWidth="1.2" />}
            {pattern === "vlines" && <path d="M2 0v8M6 0v8" stroke="#fff" strokeWidth="1.2" />}
            {pattern === "grid" && <path d="M0 4h8M4 0v8" stroke="#fff" strokeWidth="1.2" />}
          </pattern>
        );
      })}
    </defs>
  );
}

/** A small square of an outcome's fill, beside its word (decorative: the word says it). */
export function OutcomeSwatch({ outcome }: { outcome: Outcome }) {
  return (
    <span
      aria-hidden="true"
      className="size-3 shrink-0 rounded-sm"
      style={{ background: swatchBackground(outcome), outline: `1px solid ${OUTCOME_STYLE[outcome].color}` }}
    />
  );
}
