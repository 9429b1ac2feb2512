import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ShopTimeZoneProvider } from "@/components/ui/shop-time";
import { ApprovalFollowUps } from "./approval-follow-ups";

const render = (remindedAt: string | null, escalatedAt: string | null) =>
  renderToStaticMarkup(
    <ShopTimeZoneProvider timeZone="Europe/Paris">
      <ApprovalFollowUps remindedAt={remindedAt} escalatedAt={escalatedAt} />
    </ShopTimeZoneProvider>,
  ).replace(/<[^>]+>/g, "");

describe("ApprovalFollowUps", () => {
  it("says when the approvers were reminded and the admins told, in the shop's time zone", () => {
    const text = render("2026-12-04T13:05:00.000Z", "2026-12-04T15:05:00.000Z");
    expect(text).toMatch(
      /^Approvers reminded at Dec 4, 2026, 2:05\sPM GMT\+1 · Admins told at Dec 4, 2026, 4:05\sPM GMT\+1$/,
    );
  });

  it("says nothing when neither was sent", () => {
    expect(render(null, null)).toBe("");
    expect(render("2026-12-04T13:05:00.000Z", null)).toMatch(/^Approvers reminded at .*2:05/);
  });
});
