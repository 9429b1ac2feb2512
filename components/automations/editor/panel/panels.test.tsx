import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, test, vi } from "vitest";
import type { DryRunResult } from "@/lib/automations/dry-run/result";
import type { Graph } from "@/lib/automations/graph/schema";
import { DryRunPanel } from "./dry-run-panel";
import { DryRunResults } from "./dry-run-results";
import { PublishDialog, type PublishDialogProps } from "../header/publish-dialog";
import { VersionChanges, VersionsPanel, type Version } from "./versions-panel";

/**
 * The panels rendered to HTML (no DOM in these tests): the labels, names and words a screen
 * reader and the Playwright specs rely on. Effects do not run here, so the server actions are
 * never called; they are mocked so that importing them pulls in no session or database code.
 */
vi.mock("@/lib/actions/automations/get-impact", () => ({ getImpactAction: vi.fn() }));
vi.mock("@/lib/actions/automations/publish-automation", () => ({ publishAutomationAction: vi.fn() }));
vi.mock("@/lib/actions/automations/list-versions", () => ({ listVersionsAction: vi.fn() }));
vi.mock("@/lib/actions/automations/revert-version", () => ({ revertVersionAction: vi.fn() }));
vi.mock("@/lib/actions/automations/dry-run", () => ({ dryRunAction: vi.fn() }));
vi.mock("@/lib/actions/entities/search-entities", () => ({ searchEntitiesAction: vi.fn() }));

//  t(order created) ──▶ w(Wait 1 hour) ──▶ tag(Add tag 'vip')
const v1: Graph = {
  nodes: [
    { id: "t", type: "auto.trigger.order_created", params: {} },
    { id: "w", type: "auto.control.wait", params: { duration: 1, unit: "hours" } },
    { id: "tag", type: "auto.action.add_tag", params: { tag: "vip" } },
  ],
  edges: [
    { id: "e1", source: "t", sourceHandle: "out", target: "w" },
    { id: "e2", source: "w", sourceHandle: "out", target: "tag" },
  ],
};

//  v2: the wait is 2 hours and the tag is 'gold'
const v2: Graph = {
  ...v1,
  nodes: v1.nodes.map((n) =>
    n.id === "w"
      ? { ...n, params: { duration: 2, unit: "hours" } }
      : n.id === "tag"
        ? { ...n, params: { tag: "gold" } }
        : n,
  ),
};

/** Text without tags, entities decoded, whitespace collapsed: what a reader hears, roughly. */
function text(html: string): string {
  return html
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ")
    .trim();
}

function publishDialog(
  over: Partial<PublishDialogProps["automation"]> = {},
  draftGraph: Graph = v2,
  extra: Partial<Pick<PublishDialogProps, "draftName" | "unchanged">> = {},
) {
  return renderToStaticMarkup(
    <PublishDialog
      {...extra}
      automation={{
        id: "a1",
        name: "VIP tagging",
        version: 1,
        status: "active",
        inFlightPolicy: "cancel",
        activeGraph: v1,
        ...over,
      }}
      draftGraph={draftGraph}
      open
      onClose={() => {}}
      beforePublish={async () => true}
      onPublished={() => {}}
    />,
  );
}

describe("PublishDialog", () => {
  test("titled with the next version, a labelled change note, what changes, the waiting runs, Publish", () => {
    const html = publishDialog();
    const words = text(html);
    expect(html).toMatch(/<dialog[^>]*aria-labelledby="([^"]+)"/);
    const titleId = /<dialog[^>]*aria-labelledby="([^"]+)"/.exec(html)![1]!;
    expect(html).toContain(`<h2 id="${titleId}"`);
    expect(words).toContain("Publish version 2");
    const noteId = /<textarea[^>]*id="([^"]+)"/.exec(html)![1]!;
    expect(html).toContain(
      `<label class="block text-sm font-medium text-zinc-800" for="${noteId}">Change note</label>`,
    );
    expect(words).toContain("What changes");
    expect(words).toContain("Changed 'Wait': duration 1 → 2");
    expect(words).toContain("Changed 'Add tag': tag 'vip' → 'gold'");
    expect(words).toContain("Runs waiting now Checking the runs that are waiting…");
    expect(html).toMatch(/<button type="submit"[^>]*>Publish<\/button>/);
    expect(words).toContain("'VIP tagging' switches from version 1 to version 2.");
  });

  test("the first version and an unchanged draft say so instead of listing lines", () => {
    expect(text(publishDialog({ version: 0, status: "draft", activeGraph: null }, v1))).toContain(
      "Publish version 1 Publishing turns 'VIP tagging' on: new events start runs.",
    );
    expect(text(publishDialog({ version: 0, status: "draft", activeGraph: null }, v1))).toContain(
      "This is the first version.",
    );
    const unchanged = text(publishDialog({ version: 3, status: "paused" }, v1));
    expect(unchanged).toContain("No changes to the steps since version 3.");
    expect(unchanged).toContain("'VIP tagging' is paused; publishing turns it on again with version 4.");
  });

  test("a renamed draft is published under its new name, not the saved one", () => {
    const first = text(
      publishDialog({ version: 0, status: "draft", name: "Untitled automation", activeGraph: null }, v1, {
        draftName: "VIP tagging ",
      }),
    );
    expect(first).toContain("Publishing turns 'VIP tagging' on: new events start runs.");
    expect(first).not.toContain("Untitled automation");
    const active = text(publishDialog({ name: "Old name" }, v2, { draftName: "Gold tagging" }));
    expect(active).toContain("'Gold tagging' switches from version 1 to version 2.");
    // An emptied name field is not published; the saved name still names it.
    expect(text(publishDialog({}, v2, { draftName: "  " }))).toContain("'VIP tagging' switches");
  });

  test("a draft the same as the active version never announces a new version", () => {
    for (const status of ["active", "paused"] as const) {
      const html = publishDialog({ version: 3, status }, v1, { unchanged: true });
      const words = text(html);
      expect(words).toContain("Nothing to publish: the draft is the same as version 3.");
      expect(words).not.toContain("version 4");
      expect(html).not.toMatch(/<button type="submit"/);
    }
  });

  test("closed, it renders an empty dialog: the form mounts fresh on every opening", () => {
    const html = renderToStaticMarkup(
      <PublishDialog
        automation={{
          id: "a1",
          name: "x",
          version: 1,
          status: "active",
          inFlightPolicy: "cancel",
          activeGraph: v1,
        }}
        draftGraph={v1}
        open={false}
        onClose={() => {}}
        beforePublish={async () => true}
        onPublished={() => {}}
      />,
    );
    expect(html).not.toContain("Change note");
  });
});

function version(n: number, graph: Graph, over: Partial<Version> = {}): Version {
  return {
    version: n,
    name: "VIP tagging",
    graph,
    inFlightPolicy: "cancel",
    note: "",
    author: "editor@demo.test",
    createdAt: "2026-11-30T09:00:00.000Z",
    active: false,
    ...over,
  };
}

describe("VersionsPanel", () => {
  test("while loading, a heading and a status say so", () => {
    const html = renderToStaticMarkup(
      <VersionsPanel
        automationId="a1"
        currentVersion={2}
        canEdit
        viewing={null}
        onView={() => {}}
        onReverted={() => {}}
      />,
    );
    expect(text(html)).toBe("Version history Loading…");
    expect(html).toContain('role="status"');
  });

  test("the viewed version lists what changed against the one before it, with text markers", () => {
    const versions = [version(2, v2), version(1, v1)];
    const words = text(renderToStaticMarkup(<VersionChanges version={versions[0]!} versions={versions} />));
    expect(words).toBe(
      "Changes since version 1 ~ Changed step: Wait 1 hour → Wait 2 hours duration: 1 → 2 ~ Changed step: Add tag 'vip' → Add tag 'gold' tag: 'vip' → 'gold'",
    );
  });

  test("the first version counts its steps; the same steps under a new name say so", () => {
    const versions = [version(2, v1, { name: "Renamed" }), version(1, v1)];
    expect(text(renderToStaticMarkup(<VersionChanges version={versions[1]!} versions={versions} />))).toBe(
      "Changes The first version, with 3 steps.",
    );
    expect(text(renderToStaticMarkup(<VersionChanges version={versions[0]!} versions={versions} />))).toBe(
      "Changes since version 1 The same steps as version 1; the name changed from 'VIP tagging' to 'Renamed'.",
    );
  });
});

describe("DryRunPanel", () => {
  test("for a trigger with records: a search box, a 'Record' radio group with 'No order', the payload box and Run", () => {
    const html = renderToStaticMarkup(
      <DryRunPanel automationId="a1" triggerDomain="order" getGraph={() => v1} onResult={() => {}} />,
    );
    const groupLabel = /role="radiogroup" aria-labelledby="([^"]+)"/.exec(html)?.[1];
    expect(groupLabel).toBeDefined();
    expect(html).toContain(`id="${groupLabel}"`);
    expect(html).toMatch(new RegExp(`id="${groupLabel}"[^>]*>Record</p>`));
    expect(html).toMatch(/<input type="radio"[^>]*checked=""[^>]*\/><span[^>]*>No order<\/span>/);
    expect(text(html)).toContain("Search orders");
    const payloadId = /<textarea[^>]*id="([^"]+)"/.exec(html)![1]!;
    expect(html).toContain(`for="${payloadId}">Event payload (JSON)</label>`);
    expect(html).toMatch(/<button type="submit"[^>]*>Run dry run<\/button>/);
  });

  test("for a webhook or no trigger: only the payload box", () => {
    for (const domain of ["webhook", "schedule", null]) {
      const html = renderToStaticMarkup(
        <DryRunPanel automationId="a1" triggerDomain={domain} getGraph={() => v1} onResult={() => {}} />,
      );
      expect(html).not.toContain("radiogroup");
      expect(html).toContain("Event payload (JSON)");
    }
  });

  test("results: the no-change notice, steps by leg with outcomes in words, details, params, errors and notes", () => {
    const result: DryRunResult = {
      steps: [
        {
          nodeId: "t",
          nodeType: "auto.trigger.order_created",
          label: "Order created",
          leg: 1,
          kind: "trigger",
          outcome: "started",
          summary: "Order created",
          detail: [],
        },
        {
          nodeId: "w",
          nodeType: "auto.control.wait",
          label: "Wait",
          leg: 1,
          kind: "wait",
          outcome: "would_wait",
          summary: "Wait 1 hour",
          detail: ["Resumes in 1 hour."],
          resumeAt: "2026-11-30T10:00:00.000Z",
        },
        {
          nodeId: "tag",
          nodeType: "auto.action.add_tag",
          label: "Add tag",
          leg: 2,
          kind: "action",
          outcome: "would_run",
          summary: "Add tag 'vip'",
          detail: ["Would add tag 'vip' to order #1001."],
          resolvedParams: { tag: "vip" },
        },
        {
          nodeId: "mail",
          nodeType: "auto.action.send_email",
          label: "Send email",
          leg: 2,
          kind: "action",
          outcome: "error",
          summary: "Send email",
          detail: [],
          error: "The recipient came out empty (does the record have an email?).",
        },
      ],
      path: { nodeIds: ["t", "w", "tag", "mail"], edgeIds: ["e1", "e2"] },
      entity: { domain: "order", id: "o1", label: "Order #1001 · ada@example.com · paid" },
      notes: [
        "Nothing was saved or sent: this was a dry run.",
        "The record after the wait is read as it is now.",
      ],
    };
    const html = renderToStaticMarkup(<DryRunResults result={result} />);
    const words = text(html);
    expect(words).toMatch(
      /^Nothing was changed — this is a dry run\. Tried on Order #1001 · ada@example\.com · paid\./,
    );
    expect(words).toContain("From the trigger Order created started");
    expect(words).toMatch(/Wait 1 hour Wait would wait until .+ · Nov 30, 10:00 AM Resumes in 1 hour\./);
    expect(html).toContain('dateTime="2026-11-30T10:00:00.000Z"');
    expect(words).toContain(
      "After the wait Add tag 'vip' Add tag would run Would add tag 'vip' to order #1001. Resolved params",
    );
    expect(html).toMatch(
      /<details[^>]*><summary[^>]*>Resolved params<\/summary><pre[^>]*>\{\n {2}&quot;tag&quot;: &quot;vip&quot;\n\}<\/pre>/,
    );
    expect(words).toContain("Send email error Error: The recipient came out empty");
    // The server's own "nothing was saved" note repeats the notice; the others are listed.
    expect(words).toMatch(/Notes The record after the wait is read as it is now\.$/);
    expect(words).not.toContain("Nothing was saved or sent");
  });
});
