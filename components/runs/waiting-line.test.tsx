import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, test } from "vitest";
import type { RunStep } from "@/lib/automations/runs/detail";
import { numberOccurrences } from "@/lib/automations/runs/timeline";
import { ShopTimeZoneProvider } from "@/components/ui/shop-time";
import { RunTimeline } from "./run-timeline";
import { WaitingLine } from "./waiting-line";

/**
 * Rendered to HTML as the server does (the viewer's zone is not known yet, so times are UTC and
 * say so); the browser re-renders them in its own zone after hydration.
 */
const soon = new Date(Date.now() + 30 * 60_000);
const hhmm = soon.toISOString().slice(11, 16);

describe("WaitingLine", () => {
  test("a retry reads 'Retrying — attempt 2 of 3 at 14:05', exact on hover", () => {
    const html = renderToStaticMarkup(
      <WaitingLine
        run={{
          status: "waiting",
          resumeAt: soon.toISOString(),
          nextWait: { kind: "retry", retry: { attempt: 2, of: 3 } },
        }}
      />,
    );
    expect(html).toContain(`>Retrying — attempt 2 of 3 at ${hhmm} UTC</time>`);
    expect(html).toContain('data-testid="retrying-at"');
    expect(html).toMatch(/title="[A-Z][a-z]{2} \d+, \d{4}, .+ UTC"/);
    expect(html).not.toContain("Resumes");
  });

  test("any other wait still reads 'Resumes in …'; a run not waiting shows nothing", () => {
    const delay = {
      status: "waiting" as const,
      resumeAt: soon.toISOString(),
      nextWait: { kind: "delay", retry: null },
    };
    expect(renderToStaticMarkup(<WaitingLine run={delay} />)).toContain(">Resumes in 30 minutes</time>");
    expect(renderToStaticMarkup(<WaitingLine run={{ ...delay, nextWait: null }} />)).toContain("Resumes in");
    expect(renderToStaticMarkup(<WaitingLine run={{ ...delay, status: "succeeded" }} />)).toBe("");
  });

  test("a wait the wake table will cancel says so instead of 'Resumes in …', in a warning tone", () => {
    const reason = "Will be cancelled when it wakes: the automation is paused.";
    const html = renderToStaticMarkup(
      <WaitingLine
        run={{
          status: "waiting",
          resumeAt: soon.toISOString(),
          nextWait: { kind: "delay", retry: null },
          fate: { continues: false, reason },
        }}
      />,
    );
    expect(html).toContain(reason);
    expect(html).toContain("text-amber-800");
    expect(html).not.toContain("Resumes");
    const alive = renderToStaticMarkup(
      <WaitingLine
        run={{ status: "waiting", resumeAt: soon.toISOString(), nextWait: null, fate: { continues: true } }}
      />,
    );
    expect(alive).toContain("Resumes in 30 minutes");
  });
});

describe("RunTimeline with retries", () => {
  const step = (
    leg: number,
    status: string,
    output: Record<string, unknown>,
    reason: string | null = null,
  ) => ({
    id: `s${leg}`,
    nodeId: "call",
    nodeType: "auto.action.http_request",
    category: "action",
    status,
    leg,
    input: {},
    output,
    error: status === "failed" ? "The server answered 503 Service Unavailable." : null,
    reason,
    startedAt: "2026-11-30T14:04:00.000Z",
    finishedAt: "2026-11-30T14:04:01.000Z",
    durationMs: 1000,
  });

  test("numbers each attempt and says when the next one was due, after the error", () => {
    const steps = numberOccurrences([
      step(
        1,
        "failed",
        { retry: { next: 2, of: 3, at: "2026-11-30T14:05:00.000Z" } },
        "Retry 2 of 3 at 14:05 UTC.",
      ),
      step(2, "success", { status: 200 }),
    ]) as RunStep[];
    // In the shop's time zone (Paris is UTC+1 in November), on the server's render as in a browser.
    const html = renderToStaticMarkup(
      <ShopTimeZoneProvider timeZone="Europe/Paris">
        <RunTimeline steps={steps} />
      </ShopTimeZoneProvider>,
    );
    const text = html.replace(/<[^>]+>/g, "");
    expect(text).toContain("attempt 1 of 3");
    expect(text).toContain("attempt 2 of 3Succeeded");
    expect(text).not.toContain("run 2 of this step");
    expect(text).toMatch(
      /Error: The server answered 503 Service Unavailable\.Retry: attempt 2 of 3 at 15:05/,
    );
    // The engine's own UTC sentence is not shown twice.
    expect(text).not.toContain("Note: Retry");
  });
});
