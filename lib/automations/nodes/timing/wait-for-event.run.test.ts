import { describe, expect, it } from "vitest";
import {
  eventWaitFromStep,
  matchWords,
  timedOutText,
  waitingForEvent,
  waitingSentence,
} from "./wait-for-event.run";

const waiting = {
  resumeAt: "2026-12-05T14:00:00.000Z",
  waitingFor: "order.fulfilled",
  match: { kind: "same_record" },
  timeoutHours: 72,
};

describe("a wait for an event in the run history", () => {
  it("while it waits: the event by name and when it times out", () => {
    expect(eventWaitFromStep({ status: "waiting", output: waiting })).toEqual({
      state: "waiting",
      eventName: "Order fulfilled",
      matchText: "",
      limit: "3 days",
      timesOutAt: "2026-12-05T14:00:00.000Z",
      receivedAt: null,
      resumedNowBy: null,
    });
  });

  it("once the event came: when it happened", () => {
    const event = {
      id: "e1",
      type: "order.fulfilled",
      domain: "order",
      entityId: "o1",
      payload: {},
      occurredAt: "2026-12-03T14:05:00.000Z",
    };
    expect(eventWaitFromStep({ status: "success", output: { ...waiting, event } })).toMatchObject({
      state: "received",
      eventName: "Order fulfilled",
      receivedAt: "2026-12-03T14:05:00.000Z",
      timesOutAt: null,
    });
  });

  it("timed out: no event, and says within how long", () => {
    const info = eventWaitFromStep({ status: "success", output: waiting })!;
    expect(info.state).toBe("timed_out");
    expect(timedOutText(info)).toBe("Timed out: Order fulfilled did not come within 3 days.");
  });

  it("Resume now: says who stopped waiting, not that the time ran out", () => {
    const info = eventWaitFromStep({ status: "success", output: { ...waiting, resumedNowBy: "Ann" } })!;
    expect(info.state).toBe("timed_out");
    expect(timedOutText(info)).toBe("Timed out: Ann chose Resume now before Order fulfilled came.");
  });

  it("a field match reads as words; a step that never waited says nothing", () => {
    expect(matchWords({ kind: "field", path: "payload.body.email", value: "ada@example.com" })).toBe(
      " where payload.body.email is ada@example.com",
    );
    expect(matchWords({ kind: "same_record" })).toBe("");
    expect(eventWaitFromStep({ status: "failed", output: null })).toBeNull();
    expect(eventWaitFromStep({ status: "skipped", output: waiting })).toBeNull();
  });
});

describe("what a waiting run waits for, in its page's header", () => {
  it("is the waiting step's event when the run's next wait is one", () => {
    const steps = [
      { nodeType: "auto.trigger.order_paid", status: "success", output: null },
      { nodeType: "auto.control.wait_for_event", status: "waiting", output: waiting },
    ];
    expect(waitingForEvent({ nextWait: { kind: "event" }, steps })?.eventName).toBe("Order fulfilled");
    expect(waitingForEvent({ nextWait: { kind: "delay" }, steps })).toBeNull();
    expect(waitingForEvent({ nextWait: null, steps })).toBeNull();
  });
});

describe("a wait for an event in the Waiting list", () => {
  const wait = {
    kind: "event",
    waitingFor: "order.fulfilled",
    received: null,
    entityLabel: "Order #1022 · €65.00 · ada@example.com",
  };
  it("says what it waits for, on which record; then that it came", () => {
    expect(waitingSentence(wait)).toBe("Waiting for Order fulfilled on Order #1022");
    expect(waitingSentence({ ...wait, entityLabel: null })).toBe("Waiting for Order fulfilled");
    expect(waitingSentence({ ...wait, received: { type: "order.fulfilled" } })).toBe(
      "Received Order fulfilled",
    );
    expect(waitingSentence({ ...wait, kind: "delay" })).toBeNull();
  });
});
