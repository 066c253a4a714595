// Closed by default (issue 39): which listen addresses count as loopback, and the lines a listener
// on another address without a token warns or answers.

import { DEFAULT_LISTEN_HOST, isLoopbackHost, openListenerWarning, readApiRefusal, SETTINGS } from "@ragmeter/runtime";
import { describe, expect, it } from "vitest";
import { collectorConfigSchema } from "../../collector/src/config.js";

describe("isLoopbackHost", () => {
  it("127.0.0.0/8, ::1 (any spelling, bracketed, IPv4-mapped) and localhost are loopback", () => {
    for (const h of ["127.0.0.1", "127.255.0.9", "::1", "[::1]", "0:0:0:0:0:0:0:1", "::ffff:127.0.0.1", "localhost", "LOCALHOST", "localhost."])
      expect(isLoopbackHost(h), h).toBe(true);
  });
  it("every interface, another address, a host name or garbage is not", () => {
    for (const h of ["0.0.0.0", "::", "[::]", "192.0.2.2", "10.0.0.1", "128.0.0.1", "::ffff:10.0.0.1", "fe80::1", "example.com", "localhost.example.com", "127.0.0.1.nip.io", ""])
      expect(isLoopbackHost(h), h).toBe(false);
  });
});

describe("defaults: loopback", () => {
  it("the collector (and serve) and the catalog default to 127.0.0.1", () => {
    expect(DEFAULT_LISTEN_HOST).toBe("127.0.0.1");
    expect(collectorConfigSchema.parse({}).host).toBe("127.0.0.1");
    expect(SETTINGS.RAGMETER_COLLECTOR_HOST.type.parse(undefined)).toBe("127.0.0.1");
  });
});

describe("openListenerWarning and readApiRefusal", () => {
  it("nothing on loopback, or with a token", () => {
    expect(openListenerWarning("127.0.0.1", false, "can send spans")).toBeNull();
    expect(openListenerWarning("0.0.0.0", true, "can send spans")).toBeNull();
    expect(readApiRefusal("::1", false)).toBeNull();
    expect(readApiRefusal("0.0.0.0", true)).toBeNull();
  });
  it("on 0.0.0.0 without a token: the risk and the settings that close it", () => {
    expect(openListenerWarning("0.0.0.0", false, "can send spans and logs to it")).toBe(
      "listening on 0.0.0.0, an address reachable from the network, without a token: anyone who can reach it can send spans and logs to it; set RAGMETER_COLLECTOR_TOKEN (a bearer token clients must send) or listen on 127.0.0.1 (--host or RAGMETER_COLLECTOR_HOST)",
    );
    // a listener that takes no token (eval --via-traces) names its address setting only
    expect(openListenerWarning("::", false, "can send spans into this run", { host: "--otlp-host", token: null })).toBe(
      "listening on ::, an address reachable from the network, without a token: anyone who can reach it can send spans into this run; listen on 127.0.0.1 (--otlp-host)",
    );
    expect(readApiRefusal("192.0.2.2", false)).toBe(
      "the read API serves captured questions, answers and chunks and listens on 192.0.2.2, an address reachable from the network, without a token: it refuses every request until RAGMETER_COLLECTOR_TOKEN is set (clients then send Authorization: Bearer <token>), or listen on 127.0.0.1 (--host)",
    );
  });
});
