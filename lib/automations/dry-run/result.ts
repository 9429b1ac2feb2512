import type { ConditionWhy, SplitChoice } from "@/lib/automations/nodes/types";

/** What a dry run replies (the API's, the MCP tool's and the editor's panel's), and what its walk gathers. */

export interface DryRunStep {
  nodeId: string;
  nodeType: string;
  label: string;
  leg: number;
  kind: "trigger" | "condition" | "action" | "wait";
  /**
   * `branch`: a split's, which takes `branch` (its `detail`: "Goes down Group B, 40 % of customers…").
   * `would_skip`: a marketing step a run would skip for its customer's consent (lib/consent); its
   * `detail` says why ("Skipped: Mia does not accept marketing emails"), and the walk goes on.
   */
  outcome: "started" | "true" | "false" | "branch" | "would_run" | "would_wait" | "would_skip" | "error";
  /** For `would_skip`: why the customer is skipped, counted apart by Insights. */
  skippedFor?: "consent" | "unsubscribed";
  /**
   * For a marketing action's `would_wait` (lib/messaging): it would wait for the customer's quiet
   * hours to end (`quiet`), be deferred by the shop's cap (`cap`) or give way to a message of higher
   * priority (`yield`); `resumeAt` says until when.
   */
  deferredFor?: "quiet" | "cap" | "yield";
  summary: string;
  detail: string[];
  resolvedParams?: Record<string, unknown>;
  /** An email the step would send, rendered as the recipient would get it (shown in a sandboxed frame). */
  email?: DryRunEmail;
  resumeAt?: string;
  error?: string;
  /** A condition's: what it read and what it compared it with (nodes/conditions/why.ts). */
  why?: ConditionWhy;
  /** A split's (outcome `branch`): the branch it takes, as a run's step output has it. */
  branch?: SplitChoice;
}

export interface DryRunEmail {
  to: string;
  subject: string;
  /** The body as sent: tokens filled in (values HTML-escaped), line breaks as `<br>`. */
  html: string;
}

export interface DryRunResult {
  steps: DryRunStep[];
  path: { nodeIds: string[]; edgeIds: string[] };
  entity: { domain: string; id: string; label: string } | null;
  /**
   * The record as the first leg's `{entity.…}` tokens read it (an order with its customer), so the
   * editor can preview a field's tokens on it; null without a record.
   */
  tokenRecord?: Record<string, unknown> | null;
  /** The shop's time zone, which `{… | date}` writes days in. */
  timeZone?: string;
  notes: string[];
}

/** What the walk of a dry run gathers as it goes, leg by leg: the reply is made of it. */
export interface Trail {
  steps: DryRunStep[];
  /** The path to light: the nodes the walk took and the connections it followed, in order. */
  nodeIds: Set<string>;
  edgeIds: Set<string>;
  notes: string[];
  /** Legs walked so far: a run numbers them in the order its waits come due. */
  legs: number;
  /** Whether an action's templates read `{steps.…}`, which only a real run has. */
  readsSteps: boolean;
  /** Approvals met, each followed as if it timed out. */
  approvals: number;
  /** Waits for an event met, each followed as if it timed out (optional for trails made before them). */
  eventWaits?: number;
}
