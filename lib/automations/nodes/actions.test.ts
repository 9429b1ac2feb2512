import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { addNote } from "./add-note/add-note";
import { addTag } from "./tags/add-tag";
import { createTask } from "./create-task/create-task";
import { httpRequest } from "./http-request/http-request";
import { removeTag } from "./tags/remove-tag";
import { sendEmail } from "./send-email/send-email";

function issues(schema: z.ZodType, input: unknown): string[] {
  const result = schema.safeParse(input);
  return result.success ? [] : result.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
}

describe("tags", () => {
  it("want a tag of 1 to 100 characters, trimmed", () => {
    expect(addTag.params.parse({ tag: "  vip " })).toEqual({ tag: "vip" });
    expect(issues(addTag.params, { tag: "   " })).toEqual(["tag: cannot be empty"]);
    expect(issues(addTag.params, {})).toEqual(["tag: is required"]);
    expect(issues(addTag.params, { tag: 7 })).toEqual(["tag: must be text"]);
    expect(issues(removeTag.params, { tag: "x".repeat(101) })).toEqual([
      "tag: is longer than 100 characters",
    ]);
    expect(addTag.summarise({ tag: "vip" })).toBe("Add tag 'vip'");
    expect(removeTag.summarise({ tag: "vip" })).toBe("Remove tag 'vip'");
    expect(addTag.templated).toEqual(["tag"]);
  });
});

describe("add_note", () => {
  it("keeps the body as written and wants some text", () => {
    expect(addNote.params.parse({ body: "  Call {entity.email}\n" })).toEqual({
      body: "  Call {entity.email}\n",
    });
    expect(issues(addNote.params, { body: " \n " })).toEqual(["body: cannot be empty"]);
    expect(issues(addNote.params, { body: "x".repeat(5001) })).toEqual([
      "body: is longer than 5000 characters",
    ]);
    expect(addNote.summarise({ body: "Customer asked for gift wrapping on every order they place" })).toBe(
      "Add note 'Customer asked for gift wrapping on eve…'",
    );
  });
});

describe("send_email", () => {
  it("sends to the record's email by default", () => {
    expect(sendEmail.params.parse({ subject: "Hi", body: "Thanks" })).toEqual({
      to: "{entity.email}",
      subject: "Hi",
      body: "Thanks",
    });
    expect(sendEmail.templated).toEqual(["to", "subject", "body"]);
  });

  it("wants addresses or tokens, a subject and a body", () => {
    expect(
      issues(sendEmail.params, { to: "ops@shop.test, {entity.email}", subject: "s", body: "b" }),
    ).toEqual([]);
    expect(issues(sendEmail.params, { to: "ops at shop", subject: "s", body: "b" })).toEqual([
      "to: must be an email address or a token such as {entity.email}",
    ]);
    expect(issues(sendEmail.params, { subject: "", body: "b" })).toEqual(["subject: cannot be empty"]);
    expect(issues(sendEmail.params, { subject: "s".repeat(201), body: "b" })).toEqual([
      "subject: is longer than 200 characters",
    ]);
  });
});

describe("http_request", () => {
  it("fills in method, headers and timeout", () => {
    expect(httpRequest.params.parse({ url: "https://hooks.test/x" })).toEqual({
      url: "https://hooks.test/x",
      method: "POST",
      headers: {},
      timeoutMs: 10_000,
    });
    expect(
      httpRequest.summarise(httpRequest.params.parse({ url: "https://hooks.test/x", method: "GET" })),
    ).toBe("GET https://hooks.test/x");
    expect(httpRequest.templated).toEqual(["url", "body", "headers"]);
  });

  it("wants an http(s) URL, or one a token supplies", () => {
    expect(issues(httpRequest.params, { url: "http://a.test" })).toEqual([]);
    expect(issues(httpRequest.params, { url: "{variables.hookUrl}/orders" })).toEqual([]);
    expect(issues(httpRequest.params, { url: "ftp://a.test" })).toEqual([
      "url: must start with https:// or http://",
    ]);
    expect(issues(httpRequest.params, { url: "javascript:alert(1)" })).toEqual([
      "url: must start with https:// or http://",
    ]);
    expect(issues(httpRequest.params, {})).toEqual(["url: is required"]);
  });

  it("checks method, headers and timeout, naming the field", () => {
    expect(issues(httpRequest.params, { url: "https://a.test", method: "FETCH" })).toEqual([
      "method: must be one of GET, POST, PUT, PATCH, DELETE",
    ]);
    expect(issues(httpRequest.params, { url: "https://a.test", timeoutMs: 60_000 })).toEqual([
      "timeoutMs: must be at most 30000",
    ]);
    expect(issues(httpRequest.params, { url: "https://a.test", timeoutMs: 500 })).toEqual([
      "timeoutMs: must be at least 1000",
    ]);
    expect(
      issues(httpRequest.params, { url: "https://a.test", headers: { "X-Shop": "{entity.id}" } }),
    ).toEqual([]);
    expect(issues(httpRequest.params, { url: "https://a.test", headers: { "Bad Header": "x" } })).toEqual([
      "headers.Bad Header: is not a valid header name",
    ]);
    expect(
      issues(httpRequest.params, { url: "https://a.test", headers: { "Idempotency-Key": "x" } }),
    ).toEqual(["headers.Idempotency-Key: is set by Tillflow itself"]);
    // The Standard Webhooks headers carry the shop's signature: a flow cannot forge or replace them.
    expect(
      issues(httpRequest.params, {
        url: "https://a.test",
        headers: { "Webhook-Signature": "v1,x", "webhook-id": "x", "WEBHOOK-TIMESTAMP": "1" },
      }),
    ).toEqual([
      "headers.Webhook-Signature: is set by Tillflow itself",
      "headers.webhook-id: is set by Tillflow itself",
      "headers.WEBHOOK-TIMESTAMP: is set by Tillflow itself",
    ]);
  });
});

describe("create_task", () => {
  it("wants a title, and optionally a due-in duration and an assignee's email", () => {
    expect(issues(createTask.params, { title: "Call back", dueIn: "2h", assignee: "ops@shop.test" })).toEqual(
      [],
    );
    expect(issues(createTask.params, { title: "" })).toEqual(["title: cannot be empty"]);
    expect(issues(createTask.params, { title: "x", dueIn: "2 hours" })).toEqual([
      "dueIn: must be a duration such as 30m, 2h or 3d",
    ]);
    expect(issues(createTask.params, { title: "x", assignee: "bob" })).toEqual([
      "assignee: must be an email address",
    ]);
    expect(createTask.summarise({ title: "Call back", dueIn: "2h" })).toBe(
      "Create task 'Call back', due in 2 hours",
    );
    expect(createTask.summarise({ title: "Call back" })).toBe("Create task 'Call back'");
  });
});
