import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { decideSplit, type BranchCounts } from "@/lib/automations/performance/split-stats";
import { SplitReport } from "./split-report";

const counts = (id: string, label: string, entered: number, conversions: number): BranchCounts => ({
  id,
  label,
  entered,
  conversions,
  revenue: conversions * 60,
  revenueSquares: conversions * 3600,
});

const render = (branches: BranchCounts[], canEdit = true) =>
  renderToStaticMarkup(
    <SplitReport
      title="Split customers: Group A 50 % · Group B 50 %"
      report={decideSplit(branches)}
      currency="EUR"
      automationId="auto-1"
      splitId="split"
      canEdit={canEdit}
    />,
  )
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;|&apos;/g, "'")
    .replace(/\s+/g, " ");

describe("SplitReport", () => {
  it("says how many more customers it needs while there is no winner, and offers no button", () => {
    const text = render([counts("a", "Group A", 120, 12), counts("b", "Group B", 118, 14)]);
    expect(text).toMatch(/No winner yet — about [\d,]+ more customers per group needed/);
    expect(text).toContain("Group A 120 12 10.0 % €6.00");
    expect(text).toMatch(/\d+ % chance it's the best/);
    expect(text).not.toContain("Send everyone down");
  });

  it("names the winner with its chance, and offers to send everyone down it to editors", () => {
    const text = render([counts("a", "Group A", 1000, 100), counts("b", "Group B", 1000, 160)]);
    expect(text).toContain("Group B wins (over 99 % chance it's the best)");
    expect(text).toContain("Send everyone down Group B");
    expect(
      render([counts("a", "Group A", 1000, 100), counts("b", "Group B", 1000, 160)], false),
    ).not.toContain("Send everyone down");
  });
});
