"use client";

import { unstable_rethrow } from "next/navigation";
import { useCallback, useTransition } from "react";
import type { ActionResult } from "@/lib/actions/action";

/** What a screen says when a server action's request never reached the server (offline, a deploy). */
export const UNREACHABLE = "The server could not be reached. Check your connection and try again.";

/**
 * A server action's answer (`lib/actions/action.ts`): its data, the error it gave, or — when the
 * request failed on the way — `unreachable` with the sentence above, so no screen writes it again.
 */
export type ServerAnswer<T> =
  ActionResult<T> | { ok: false; error: string; unreachable: true; issues?: undefined; code?: undefined };

/**
 * `call`'s answer; a rejected request (no answer from the server) becomes the unreachable one. A
 * redirect is not a failure: an action that calls `redirect()` rejects its promise on the client
 * with Next's redirect error, which must reach the router's boundary to navigate, so it goes on.
 */
export function reach<T>(call: Promise<ActionResult<T>>): Promise<ServerAnswer<T>> {
  return call.catch((error: unknown) => {
    unstable_rethrow(error);
    return { ok: false, error: UNREACHABLE, unreachable: true } as const;
  });
}

/** Whether an answer is the request failing on the way rather than the server saying no. */
export function unreachable<T>(answer: ServerAnswer<T>): boolean {
  return !answer.ok && "unreachable" in answer;
}

/**
 * A server action as a screen calls it: `call` answers (never throws), `run` calls it inside a
 * transition and hands the answer on, with `pending` true meanwhile (for a button's spinner) and
 * until `then` has finished, when it returns a promise (a list read again after the change).
 */
export function useServerAction<I, T>(action: (input: I) => Promise<ActionResult<T>>) {
  const [pending, startTransition] = useTransition();
  const call = useCallback((input: I) => reach(action(input)), [action]);
  const run = useCallback(
    (input: I, then: (answer: ServerAnswer<T>) => void | Promise<void>) =>
      startTransition(async () => {
        await then(await call(input));
      }),
    [call],
  );
  return { call, run, pending };
}
