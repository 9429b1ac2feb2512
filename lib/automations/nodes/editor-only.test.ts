import { describe, expect, test } from "vitest";
import { forRole } from "./editor-only";

const hook = {
  id: "in",
  type: "auto.trigger.webhook",
  params: { token: "tok_secret_address_1234", signed: true },
};
const tag = { id: "t", type: "auto.action.add_tag", params: { tag: "vip", token: "not-a-hook" } };

describe("editor-only params", () => {
  test("a viewer gets a webhook trigger without its token, however deep it sits; other steps keep theirs", () => {
    const reply = {
      draftGraph: { nodes: [hook, tag], edges: [] },
      versions: [{ graph: { nodes: [hook] }, at: new Date(0) }],
    };
    const seen = forRole(reply, "viewer");
    expect(JSON.stringify(seen)).not.toContain("tok_secret_address_1234");
    expect(seen.draftGraph.nodes[0]).toEqual({
      id: "in",
      type: "auto.trigger.webhook",
      params: { signed: true },
    });
    expect(seen.draftGraph.nodes[1]).toEqual(tag);
    expect(seen.versions[0]!.at).toBeInstanceOf(Date);
    // The stored value is not changed in place.
    expect(hook.params.token).toBe("tok_secret_address_1234");
  });

  test("editors and admins get the reply as it is", () => {
    const reply = { nodes: [hook] };
    expect(forRole(reply, "editor")).toBe(reply);
    expect(forRole(reply, "admin")).toBe(reply);
  });
});
