import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { NodeConfig } from "../node-config";

// The Approval step's settings in the editor's side panel: the generic form built from its params
// schema, with the reminder and the word to the admins in plain words and the schema's sentences.

function render(params: Record<string, unknown>): string {
  return renderToStaticMarkup(
    <NodeConfig
      node={{ id: "a1", type: "auto.control.approval", params }}
      triggerDomain="order"
      otherSteps={[]}
      readOnly={false}
      onParamsChange={() => {}}
    />,
  );
}

const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;/g, "'")
    .replace(/\s+/g, " ");
const base = { title: "Review order {entity.number}", timeoutHours: 24, approverRole: "editor" };

describe("the Approval step's settings", () => {
  it("offer the reminder to approvers and the word to admins, optional, in plain words", () => {
    const shown = text(render(base));
    expect(shown).toContain("Remind approvers after (hours) optional");
    expect(shown).toContain("Tell admins after (hours) optional");
    expect(shown).toContain("the approvers get one reminder by email");
    expect(shown).toContain("the shop's admins get one email");
  });

  it("say why a reminder at the time-out is refused, under its field", () => {
    const shown = text(render({ ...base, remindAfterHours: 24 }));
    expect(shown).toContain(
      "Remind approvers after (hours) must be less than the time-out (24 hours), or the reminder would come after the run has moved on.",
    );
  });
});
