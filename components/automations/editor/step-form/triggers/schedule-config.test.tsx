import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { NodeConfig } from "../node-config";

/** The schedule trigger's form rendered to HTML, in a shop whose zone is Paris. */
function render(params: Record<string, unknown>): string {
  return renderToStaticMarkup(
    <NodeConfig
      node={{ id: "n1", type: "auto.trigger.schedule", params }}
      triggerDomain="schedule"
      otherSteps={[]}
      previewSource={{ timeZone: "Europe/Paris", record: null }}
      readOnly={false}
      onParamsChange={() => {}}
    />,
  );
}

function labels(html: string): string[] {
  return [...html.matchAll(/<(?:label|legend)[^>]*>([^<]*)/g)].map((m) => m[1] ?? "").filter(Boolean);
}

describe("the schedule trigger's form", () => {
  it("opens a sentence cron as the sentence, in the zone's words", () => {
    const html = render({ cron: "0 9 * * 1-5", timezone: "Europe/Paris" });
    expect(labels(html)).toEqual(expect.arrayContaining(["Runs", "At", "Time zone", "As a sentence"]));
    expect(html).toMatch(/<option value="weekdays" selected="">Weekdays \(Mon–Fri\)/);
    expect(html).toContain('value="09:00"');
    expect(html).toContain("Every weekday (Monday to Friday) at 09:00, Paris time.");
    expect(html).not.toContain("Cron expression");
    expect(html).toContain("This is the shop&#x27;s zone.");
  });

  it("opens any other cron on Advanced, with the expression and what it means", () => {
    const html = render({ cron: "*/15 9-17 * * 1-5", timezone: "Asia/Tokyo" });
    expect(html).toMatch(/<input[^>]*type="radio"[^>]*checked=""[^>]*>\s*<label[^>]*>Advanced \(cron\)/);
    expect(labels(html)).toContain("Cron expression");
    expect(html).toContain('value="*/15 9-17 * * 1-5"');
    expect(html).toContain("Every 15 minutes, during hours 9 to 17, on Monday to Friday, Tokyo time.");
    expect(html).toContain("The shop&#x27;s zone is Paris (Europe)");
  });

  it("lists what an audience filters on, in the merchant's words, when it runs per customer", () => {
    const none = render({ cron: "0 9 * * *", timezone: "Europe/Paris" });
    expect(labels(none)).toContain("One run, not about any customer");
    expect(labels(none)).not.toContain("Accepts marketing");

    const html = render({
      cron: "0 9 * * *",
      timezone: "Europe/Paris",
      audience: { acceptsMarketing: true, minOrdersCount: 2, tagsInclude: ["vip"] },
    });
    expect(labels(html)).toEqual(
      expect.arrayContaining([
        "Accepts marketing",
        "Orders",
        "Total spent",
        "Has any of these tags",
        "Has none of these tags",
        "Customer since (days)",
      ]),
    );
    expect(html).toMatch(/<option value="yes" selected="">Yes</);
    expect(html).toContain("Customers who accept marketing, with at least 2 orders, tagged vip.");
    expect(html).not.toContain("acceptsMarketing");
  });
});
