import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { SigningSecretSection } from "./signing-secret-section";

const render = (status: Parameters<typeof SigningSecretSection>[0]["status"], canManage: boolean) =>
  renderToStaticMarkup(<SigningSecretSection status={status} canManage={canManage} />);

describe("Settings → Shop → Signing secret", () => {
  it("explains what the secret is for, with a link to Standard Webhooks", () => {
    const html = render({ lastFour: null, shown: false, unreadable: false }, true);
    expect(html).toContain("Every HTTP request your flows send is signed with this secret");
    expect(html).toContain('href="https://www.standardwebhooks.com"');
    expect(html).toContain("No secret yet: one is made the first time a flow sends a request");
  });

  it("an admin who has not seen it yet can show it, once", () => {
    const html = render({ lastFour: "Ab1=", shown: false, unreadable: false }, true);
    expect(html).toContain("…Ab1=");
    expect(html).toContain(">Show secret<");
    expect(html).not.toContain("Rotate secret");
  });

  it("after it was shown, an admin sees its last 4 characters and can only rotate it", () => {
    const html = render({ lastFour: "Ab1=", shown: true, unreadable: false }, true);
    expect(html).toContain("The secret ends in");
    expect(html).toContain(">Rotate secret<");
    expect(html).toContain("Rotate the signing secret?");
    expect(html).not.toContain("Show secret");
  });

  it("editors and viewers see that it exists, with neither button", () => {
    const html = render({ lastFour: "Ab1=", shown: false, unreadable: false }, false);
    expect(html).toContain("…Ab1=");
    expect(html).toContain("Only an admin can see or rotate the signing secret.");
    expect(html).not.toContain("Show secret");
    expect(html).not.toContain("Rotate secret");
  });

  it("a secret the server cannot read says so, and offers a rotation", () => {
    const html = render({ lastFour: null, shown: false, unreadable: true }, true);
    expect(html).toContain("The stored secret can no longer be read");
    expect(html).toContain(">Rotate secret<");
  });
});
