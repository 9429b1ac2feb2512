import { beforeAll, describe, expect, test } from "vitest";
import { POST as publishRoute } from "@/app/api/v1/automations/[id]/publish/route";
import { POST as revertRoute } from "@/app/api/v1/automations/[id]/versions/[version]/revert/route";
import { getAutomation } from "@/lib/automations/lifecycle/read";
import { listVersions } from "@/lib/automations/lifecycle/versions";
import { call } from "@/tests/helpers/fixtures";
import { createShop, type TestShop } from "@/tests/helpers/shop";
import { publishFlow, republish, waitThenTag } from "@/tests/helpers/flows";

// The publish and revert dialogs let the person choose what waiting runs do (SPEC §2 "On wake");
// the API takes that choice, and a revert otherwise brings the old version's policy back.

let shop: TestShop;
beforeAll(async () => {
  shop = await createShop();
});

async function versionPolicies(id: string) {
  const versions = await listVersions(shop.tenant.id, id);
  return Object.fromEntries(versions.map((v) => [v.version, { policy: v.inFlightPolicy, name: v.name }]));
}

describe("publishing with a chosen policy and name", () => {
  test("the chosen policy is the new version's and the draft's", async () => {
    const id = await publishFlow(shop.keys.editor, "Chosen policy", waitThenTag("a"));
    await republish(shop.keys.editor, id, waitThenTag("b"), "cancel");
    const res = await call(publishRoute, {
      method: "POST",
      key: shop.keys.editor,
      params: { id },
      body: { note: "", inFlightPolicy: "move_to_latest" },
    });
    // republish published version 2 already; choosing another policy is itself a change: version 3.
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const versions = await versionPolicies(id);
    expect(versions[3]?.policy).toBe("move_to_latest");
    expect((await getAutomation(shop.tenant.id, id)).inFlightPolicy).toBe("move_to_latest");
  });

  test("a name given while publishing names the version", async () => {
    const id = await publishFlow(shop.keys.editor, "Untitled automation", waitThenTag("a"));
    const res = await call(publishRoute, {
      method: "POST",
      key: shop.keys.editor,
      params: { id },
      body: { name: "Tag after two days" },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await versionPolicies(id))[2]?.name).toBe("Tag after two days");
    expect((await getAutomation(shop.tenant.id, id)).name).toBe("Tag after two days");
  });

  test("an unknown policy is refused in plain words", async () => {
    const id = await publishFlow(shop.keys.editor, "Bad policy", waitThenTag("a"));
    const res = await call<{ error: { message: string } }>(publishRoute, {
      method: "POST",
      key: shop.keys.editor,
      params: { id },
      body: { inFlightPolicy: "sometimes" },
    });
    expect(res.status).toBe(422);
    expect(JSON.stringify(res.body)).toContain("choose cancel, finish_on_started_version or move_to_latest");
  });
});

describe("reverting", () => {
  test("brings the old version's policy back unless another is chosen", async () => {
    const id = await publishFlow(shop.keys.editor, "Revert policy", waitThenTag("v1"), {
      inFlightPolicy: "finish_on_started_version",
    });
    await republish(shop.keys.editor, id, waitThenTag("v2"), "cancel");

    const plain = await call(revertRoute, {
      method: "POST",
      key: shop.keys.editor,
      params: { id, version: "1" },
    });
    expect(plain.status, JSON.stringify(plain.body)).toBe(200);
    expect((await versionPolicies(id))[3]?.policy).toBe("finish_on_started_version");

    const chosen = await call(revertRoute, {
      method: "POST",
      key: shop.keys.editor,
      params: { id, version: "2" },
      body: { inFlightPolicy: "move_to_latest" },
    });
    expect(chosen.status, JSON.stringify(chosen.body)).toBe(200);
    const versions = await versionPolicies(id);
    expect(versions[4]?.policy).toBe("move_to_latest");
    expect((await getAutomation(shop.tenant.id, id)).inFlightPolicy).toBe("move_to_latest");
  });

  test("refuses a policy that is not one", async () => {
    const id = await publishFlow(shop.keys.editor, "Revert bad", waitThenTag("v1"));
    await republish(shop.keys.editor, id, waitThenTag("v2"), "cancel");
    const res = await call(revertRoute, {
      method: "POST",
      key: shop.keys.editor,
      params: { id, version: "1" },
      body: { inFlightPolicy: "later" },
    });
    expect(res.status).toBe(422);
  });
});
