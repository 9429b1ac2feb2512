import { describe, expect, it } from "vitest";
import { nodeCatalog, registry } from "@/lib/automations/nodes/registry";
import { bestMatch, paletteGroups } from "./palette-groups";

/** The catalog the page sends the editor. */
const NODES = nodeCatalog();

describe("paletteGroups", () => {
  it("lists every merchant node type once, in the order Triggers, Timing, Conditions, Actions", () => {
    const groups = paletteGroups("", NODES);
    expect(groups.map((g) => g.title)).toEqual(["Triggers", "Timing", "Conditions", "Actions"]);
    const listed = groups.flatMap((g) => g.items.map((d) => d.type));
    expect(listed.sort()).toEqual(
      registry
        .all()
        .filter((d) => !d.platform)
        .map((d) => d.type)
        .sort(),
    );
  });

  const PLATFORM_JOBS = [
    "auto.action.purge_run_history",
    "auto.action.mark_carts_abandoned",
    "auto.action.mark_invoices_overdue",
  ];
  const listed = (groups: ReturnType<typeof paletteGroups>) =>
    groups.flatMap((g) => g.items.map((d) => d.type));

  it("hides the platform jobs from merchants, even when searched for", () => {
    for (const type of PLATFORM_JOBS) expect(listed(paletteGroups("", NODES))).not.toContain(type);
    expect(paletteGroups("purge run history", NODES)).toEqual([]);
  });

  it("offers the platform jobs to a built-in automation", () => {
    const all = listed(paletteGroups("", NODES, { platform: true }));
    expect(all).toEqual(expect.arrayContaining(PLATFORM_JOBS));
    expect(all.sort()).toEqual(
      registry
        .all()
        .map((d) => d.type)
        .sort(),
    );
  });

  it("puts waits and Later under Timing, not under Actions", () => {
    const timing = paletteGroups("", NODES).find((g) => g.title === "Timing")!;
    expect(timing.items.map((d) => d.type)).toEqual(
      expect.arrayContaining([
        "auto.control.wait",
        "auto.control.wait_until",
        "auto.control.wait_for_event",
        "auto.action.later",
      ]),
    );
    const actions = paletteGroups("", NODES).find((g) => g.title === "Actions")!;
    expect(actions.items.map((d) => d.type)).not.toContain("auto.action.later");
  });

  it("filters by every word of the search, and drops empty groups", () => {
    const groups = paletteGroups("add tag", NODES);
    expect(groups.map((g) => g.title)).toEqual(["Actions"]);
    expect(groups[0]!.items.map((d) => d.type)).toContain("auto.action.add_tag");
    expect(paletteGroups("no step is called this", NODES)).toEqual([]);
  });

  it("Enter's best match is the step whose name answers the search, not one whose description does", () => {
    const best = (query: string) => bestMatch(paletteGroups(query, NODES), query)?.type;
    expect(best("wait")).toBe("auto.control.wait");
    expect(best("wait until")).toBe("auto.control.wait_until");
    expect(best("wait for event")).toBe("auto.control.wait_for_event");
    expect(best("fulfilled")).toBe("auto.trigger.order_fulfilled");
    expect(best("add tag")).toBe("auto.action.add_tag");
    expect(best("order paid")).toBe("auto.trigger.order_paid");
    expect(best("no step is called this")).toBeUndefined();
  });
});
