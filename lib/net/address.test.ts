import { describe, expect, test } from "vitest";
import { classifyAddress } from "./address";
import { parseAllowList } from "./allow-list";

describe("classifyAddress", () => {
  test.each([
    ["127.0.0.1", "loopback"],
    ["127.8.9.10", "loopback"],
    ["::1", "loopback"],
    ["10.1.2.3", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["192.168.1.1", "private"],
    ["169.254.169.254", "link-local"],
    ["fe80::1", "link-local"],
    ["100.64.0.1", "carrier-grade NAT"],
    ["224.0.0.1", "multicast"],
    ["ff02::1", "multicast"],
    ["0.0.0.0", "unspecified"],
    ["::", "unspecified"],
    ["255.255.255.255", "broadcast"],
    ["fc00::1", "unique local"],
    ["fd12:3456::1", "unique local"],
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:169.254.169.254", "link-local"],
    ["::ffff:10.0.0.1", "private"],
    ["64:ff9b::a00:1", "reserved"],
    ["240.0.0.1", "reserved"],
    ["8.8.8.8", "public"],
    ["172.32.0.1", "public"],
    ["2606:4700:4700::1111", "public"],
    ["::ffff:8.8.8.8", "public"],
  ])("%s is %s", (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
  });
});

describe("parseAllowList", () => {
  const list = parseAllowList(" 127.0.0.1, localhost ,10.1.0.0/16,[::1], Billing.Internal.");
  test("hostnames match case-insensitively, with or without the trailing dot", () => {
    expect(list.host("localhost")).toBe(true);
    expect(list.host("billing.internal")).toBe(true);
    expect(list.host("example.com")).toBe(false);
  });
  test("addresses and ranges match addresses, including IPv4-mapped IPv6", () => {
    expect(list.address("127.0.0.1")).toBe(true);
    expect(list.address("::ffff:127.0.0.1")).toBe(true);
    expect(list.address("127.0.0.2")).toBe(false);
    expect(list.address("10.1.200.3")).toBe(true);
    expect(list.address("10.2.0.1")).toBe(false);
    expect(list.address("::1")).toBe(true);
  });
  test("an empty list allows nothing", () => {
    expect(parseAllowList("").host("localhost")).toBe(false);
    expect(parseAllowList("").address("127.0.0.1")).toBe(false);
  });
});
