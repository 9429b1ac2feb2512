import type { z } from "zod";
import type { DbOrTx, Tx } from "@/lib/db/client";
import type { RunEvent } from "@/lib/db/schema";
import type { RunEntity } from "@/lib/automations/nodes/context";
import type { RenderOptions } from "@/lib/automations/tokens/render";

/**
 * Server-only half of the node registry: how an action takes effect.
 *
 * - `database` effects (tags, notes, outbox emails, tasks) run inside the transaction that writes
 *   the action's delivery row, so they happen exactly once.
 * - `outside` effects (HTTP) cannot share our transaction: the engine records the delivery as
 *   `sending` first, the executor sends with the delivery's dedupe key as `Idempotency-Key`, and
 *   the engine records the outcome.
 */
export interface ActionContext {
  tenantId: string;
  runId: string;
  automationId: string;
  automationName: string;
  automationVersion: number;
  nodeId: string;
  leg: number;
  /** `run:node:leg`, unique per side effect; sent as `Idempotency-Key` by HTTP actions. */
  dedupeKey: string;
  entity: RunEntity | null;
  /** The event that started the run (for a later-started run, its payload carries the chain). */
  event: RunEvent;
  /** Outputs of the leg's earlier steps (what `{steps.<id>.…}` reads). */
  steps: Readonly<Record<string, Record<string, unknown>>>;
  /**
   * Renders `{token}`s against the run; `escape` escapes the inserted values for where they land
   * (`json`, `url`, `html`, `header`; `escapeHtml` is `escape: "html"`).
   */
  render(template: string, options?: RenderOptions): string;
  now: Date;
  /**
   * A marketing message's walk (lib/messaging): the conditions it passed on the way to this step,
   * kept with it if it is deferred; and, on a deferred message's turn, why a condition on that path
   * no longer holds (it is then skipped).
   */
  message?: { path: { nodeId: string; result: boolean }[]; pathChanged: string | null };
}

/** What an action reports: recorded as the step's output and the delivery's response. */
export type ActionOutput = Record<string, unknown>;

/** A failure the merchant can act on ("The order 'o-1' no longer exists."): fails the step, not the job. */
export class ActionError extends Error {
  constructor(
    message: string,
    readonly output: ActionOutput = {},
    /** Set when trying again later may succeed (HTTP 408/429/5xx, no answer), with the receiver's Retry-After. */
    readonly transient: { retryAfterMs?: number } | null = null,
  ) {
    super(message);
    this.name = "ActionError";
  }
}

/**
 * The step is skipped, not failed: a marketing email to a customer who does not accept marketing
 * (lib/consent). The step is recorded `skipped` with the message as its reason, and the run goes on.
 */
export class ActionSkipped extends Error {
  constructor(
    message: string,
    readonly output: ActionOutput = {},
  ) {
    super(message);
    this.name = "ActionSkipped";
  }
}

/**
 * The step does not act now: a marketing message inside the customer's quiet hours, or over the
 * shop's cap (lib/messaging). The engine writes a timed wait (kind `deferred`) with a `waiting`
 * step saying until when; the wait's leg takes the step again then, and what follows it waits too.
 */
export class ActionDeferred extends Error {
  constructor(
    message: string,
    readonly until: Date,
    readonly output: ActionOutput = {},
  ) {
    super(message);
    this.name = "ActionDeferred";
  }
}

/** What `deferWhy` is told about the run that would take the step. */
export interface DeferContext {
  tenantId: string;
  automationId: string;
  /** A real run's id, or null (a dry run has none). */
  runId: string | null;
  nodeId: string;
  eventId: string;
}

type Request = Record<string, unknown>;

export interface DatabaseExecutor<P, R extends Request = Request> {
  effect: "database";
  /** Renders params into what will be done; recorded as the delivery's request. */
  prepare(params: P, ctx: ActionContext): R;
  /**
   * Optional: why the prepared request cannot be done ("'x' is not an email address."), or null.
   * Checked before acting by runs and dry runs alike, so both say the same thing.
   */
  check?(request: R): string | null;
  /**
   * Optional: why a run would skip this step for its recipient now (a marketing email to a
   * customer who does not accept marketing), with what the step records, or null. Dry runs and
   * backtests ask it; `run` asks it too and throws `ActionSkipped`.
   */
  skipWhy?(db: DbOrTx, request: R, ctx: { tenantId: string }): Promise<ActionSkipped | null>;
  /**
   * Optional: whether a run would defer this step now (a marketing email inside the customer's
   * quiet hours or over the shop's cap), decided as a run decides it but locking and writing
   * nothing. Dry runs and backtests ask it.
   */
  deferWhy?(db: DbOrTx, request: R, ctx: DeferContext): Promise<ActionDeferred | null>;
  /** Throws `ActionError` to fail the step, `ActionSkipped` to skip it, `ActionDeferred` to wait. */
  run(tx: Tx, request: R, ctx: ActionContext): Promise<ActionOutput>;
  /**
   * Optional: the same effect for many runs in a few statements (the batched engine path).
   * Returns one result per item, in order: an output, or the ActionError that item failed with.
   * Items never include two effects on the same record.
   */
  runMany?(tx: Tx, items: { request: R; ctx: ActionContext }[]): Promise<(ActionOutput | ActionError)[]>;
}

export interface OutsideExecutor<P, R extends Request = Request> {
  effect: "outside";
  prepare(params: P, ctx: ActionContext): R;
  /** As for database effects: why the request cannot be sent, or null. */
  check?(request: R): string | null;
  /**
   * Optional: why the request would be refused, found with I/O `check` cannot do (the HTTP action
   * resolves the host, and reads whether its credential may go there). Dry runs and backtests ask
   * it; a real send finds the same refusal itself.
   */
  preflight?(request: R, ctx: { tenantId: string }): Promise<string | null>;
  /** As for database effects: why a run would skip this step for its customer now, or null. */
  skipWhy?(db: DbOrTx, request: R, ctx: { tenantId: string }): Promise<ActionSkipped | null>;
  /** As for database effects: whether a run would defer this step now (dry runs and backtests ask). */
  deferWhy?(db: DbOrTx, request: R, ctx: DeferContext): Promise<ActionDeferred | null>;
  /**
   * Optional: the messaging gate (lib/messaging) of a marketing request that reaches a customer,
   * decided in the phase's transaction before its delivery is recorded: null sends it; an
   * `ActionDeferred` waits (as Send email's), an `ActionSkipped` is recorded and sends nothing.
   */
  gate?(tx: Tx, request: R, ctx: ActionContext): Promise<ActionDeferred | ActionSkipped | null>;
  /** Parses a stored request back, to re-send exactly what was sent before an interruption. */
  request: z.ZodType<R>;
  /** Throws `ActionError` to fail the step, `ActionSkipped` to skip it (sent nothing). */
  send(request: R, ctx: ActionContext): Promise<ActionOutput>;
  /** What the step says when it is sent again after an interruption. Default: the HTTP sentence. */
  resendReason?: string;
  /**
   * Optional, for a step that decides its own next actions (the code step): from its output, what
   * `{steps.<id>.…}` reads and the actions to take next, each run as the node it names.
   */
  followUp?(output: ActionOutput): FollowUp;
  /**
   * Its sends queue for a bound of their own and take no slot of the worker's outside limit
   * (`WORKER_OUTSIDE_CONCURRENCY`): the code step's scripts wait for the script pool, which is
   * shared per shop and in turn. In the outside limit, one shop's hundred scripts waiting for
   * their shop's half of the pool would hold every slot, and another shop's steps would wait
   * behind all of them (`npm run bench -- code`).
   */
  ownLimit?: "script pool";
}

/** What a step that decides its own next actions leaves behind (see `OutsideExecutor.followUp`). */
export interface FollowUp {
  /** What `{steps.<id>.…}` and conditions after the step read. */
  output: Record<string, unknown>;
  /** Actions to take next, in order, each through its own executor and delivery. */
  actions: { type: string; params: Record<string, unknown> }[];
}

export type ActionExecutor<P, R extends Request = Request> = DatabaseExecutor<P, R> | OutsideExecutor<P, R>;
