// Online-evaluation controls (issue 38, deliverable 3) in their pure parts: sampling by a hash of
// the trace id per service, the judge budget over a sliding hour, judge failures by kind, spans
// with dropped attributes, and their settings. The live path runs them in
// tests/integration/online-controls.integration.test.ts.
import { describe, expect, it } from "vitest";
import { judgeFailureKind } from "../../core/src/judges/failureKind.js";
import { JudgeBudget } from "../../core/src/scoring/budget.js";
import { notSampledReason, sampledIn, traceFraction } from "../../core/src/scoring/sampling.js";
import type { KeyValue, Span, TraceRequest } from "../../otlp/src/model.js";
import { loadStreamConfig } from "../../stream/src/config.js";
import { droppedAttributesOf, droppedAttributesWarning } from "../../stream/src/droppedAttributes.js";

// SHA-256 of the ids' ASCII, first 4 bytes big-endian / 2^32, computed with Python's hashlib:
// 0af7…319c → 368538864 / 2^32 = 0.085807…, 4bf9…4736 → 965397230 / 2^32 = 0.224774…
const A = "0af7651916cd43dd8448eb211c80319c";
const B = "4bf92f3577b34da6a3ce929d0e0e4736";

describe("judge sampling by a hash of the trace id, per service", () => {
  it("the trace's place is the hash's first 4 bytes over 2^32, whatever the id's case", () => {
    expect(traceFraction(A)).toBe(368538864 / 2 ** 32);
    expect(traceFraction(B)).toBe(965397230 / 2 ** 32);
    expect(traceFraction(A.toUpperCase())).toBe(traceFraction(A));
  });

  it("a trace is in below its service's rate: A (0.086) and B (0.225) at the default 0.1, and per service", () => {
    const s = { rate: 0.1, byService: { checkout: 0.25, search: 0 } };
    expect([sampledIn(s, A, "web"), sampledIn(s, B, "web")]).toEqual([true, false]);
    expect([sampledIn(s, A, "checkout"), sampledIn(s, B, "checkout")]).toEqual([true, true]);
    expect([sampledIn(s, A, "search"), sampledIn(s, B, "search")]).toEqual([false, false]);
    expect(sampledIn({ rate: 1 }, B, "")).toBe(true);
    expect(notSampledReason(s, "web")).toBe("live trace outside the judge sampling rate 0.1 (RAGMETER_LIVE_SAMPLE_RATE)");
    expect(notSampledReason(s, "search")).toBe('live trace outside the judge sampling rate 0 of service "search" (RAGMETER_LIVE_SAMPLE_RATE_BY_SERVICE)');
  });

  it("over 20,000 ids the share judged is the rate (±1%), and a lower rate's traces are a subset of a higher one's", () => {
    // ids from a linear congruential generator (deterministic), as hex
    let x = 12345n;
    const ids = Array.from({ length: 20_000 }, () => {
      x = (x * 6364136223846793005n + 1442695040888963407n) % 2n ** 64n;
      return x.toString(16).padStart(16, "0").repeat(2);
    });
    const at = (rate: number) => new Set(ids.filter((id) => sampledIn({ rate }, id, "svc")));
    const low = at(0.1);
    const high = at(0.3);
    expect(Math.abs(low.size / ids.length - 0.1)).toBeLessThan(0.01);
    expect(Math.abs(high.size / ids.length - 0.3)).toBeLessThan(0.01);
    expect([...low].every((id) => high.has(id))).toBe(true);
  });
});

describe("the judge budget over a sliding hour, per service", () => {
  const T0 = Date.UTC(2026, 0, 1, 12, 0, 0);
  const MIN = 60_000;

  it("calls: traces are admitted while spent + reserved < the cap; the reason names the cap and its setting; an hour later it is free again", () => {
    const b = new JudgeBudget({ calls: { perService: 5, byService: { checkout: 2 } }, tokens: { perService: null } });
    const r1 = b.admit("web", T0, 2);
    const r2 = b.admit("web", T0, 2);
    const r3 = b.admit("web", T0, 2);
    // 0 < 5, 2 < 5, 4 < 5 reserved: all three in; the fourth sees 6 reserved
    expect([r1.ok, r2.ok, r3.ok]).toEqual([true, true, true]);
    expect(b.admit("web", T0, 2)).toEqual({
      ok: false,
      reason: 'judge budget of 5 calls per hour used by service "web" (0 in the last 60 minutes, 6 more reserved by traces being judged; RAGMETER_JUDGE_CALLS_PER_HOUR)',
    });
    for (const r of [r1, r2, r3]) if (r.ok) b.settle(r.reservation, { calls: 2, tokens: 120 }, T0 + 10 * MIN);
    expect(b.spentInHour("web", T0 + 10 * MIN)).toEqual({ calls: 6, tokens: 360 });
    expect(b.reserved("web")).toEqual({ calls: 0, tokens: 0 });
    expect(b.admit("web", T0 + 69 * MIN, 2)).toMatchObject({ ok: false, reason: expect.stringContaining("(6 in the last 60 minutes; RAGMETER_JUDGE_CALLS_PER_HOUR)") });
    // the minute of T0 + 10 min leaves the window at T0 + 70 min
    expect(b.admit("web", T0 + 70 * MIN, 2).ok).toBe(true);
    // the override of another service, and a service without a name
    const c = b.admit("checkout", T0, 2);
    expect(c.ok).toBe(true);
    expect(b.admit("checkout", T0, 2)).toMatchObject({ ok: false, reason: expect.stringContaining('service "checkout"') });
    expect(b.admit("checkout", T0, 2)).toMatchObject({ reason: expect.stringContaining("RAGMETER_JUDGE_CALLS_PER_HOUR_BY_SERVICE)") });
  });

  it("tokens: a reservation holds the service's mean tokens per judged trace; a trace not judged releases its reservation", () => {
    const b = new JudgeBudget({ calls: { perService: null }, tokens: { perService: 1000 } });
    const first = b.admit("", T0, 2);
    if (!first.ok) throw new Error("first trace refused");
    expect(first.reservation).toEqual({ service: "", calls: 2, tokens: 0 });
    b.settle(first.reservation, { calls: 2, tokens: 400 }, T0);
    const second = b.admit("", T0, 2);
    if (!second.ok) throw new Error("second trace refused");
    expect(second.reservation.tokens).toBe(400);
    // 400 spent + 400 reserved = 800 < 1000: admitted; then 1200 ≥ 1000
    const third = b.admit("", T0, 2);
    expect(third.ok).toBe(true);
    expect(b.admit("", T0, 2)).toEqual({
      ok: false,
      reason:
        "judge budget of 1000 tokens per hour used by traces without a service.name (400 in the last 60 minutes, 800 more reserved by traces being judged; RAGMETER_JUDGE_TOKENS_PER_HOUR)",
    });
    b.settle(second.reservation, { calls: 0, tokens: 0 }, T0);
    if (third.ok) b.settle(third.reservation, { calls: 0, tokens: 0 }, T0);
    expect(b.reserved("")).toEqual({ calls: 0, tokens: 0 });
    expect(b.admit("", T0, 2).ok).toBe(true);
  });

  it("no cap: everything is admitted and nothing is counted (the observer still sees what was spent)", () => {
    const b = new JudgeBudget({ calls: { perService: null }, tokens: { perService: null, byService: {} } });
    const seen: unknown[] = [];
    b.observe((service, spend, now) => seen.push([service, spend, now]));
    expect(b.capped).toBe(false);
    const r = b.admit("web", T0, 2);
    if (r.ok) b.settle(r.reservation, { calls: 2, tokens: 100 }, T0);
    expect(b.spentInHour("web", T0)).toEqual({ calls: 0, tokens: 0 });
    expect(seen).toEqual([["web", { calls: 2, tokens: 100 }, T0]]);
  });

  it("the group's spend (other scorers, earlier processes) adds to this process's own within the same sliding hour; a new read replaces it", () => {
    const b = new JudgeBudget({ calls: { perService: 10 }, tokens: { perService: null } });
    const seen: unknown[] = [];
    b.observe((service, spend) => seen.push([service, spend.calls]));
    const minute = (t: number) => Math.floor(t / 1000);
    b.setGroupSpend([
      { service: "web", minute: minute(T0 - 30 * MIN), calls: 4, tokens: 400 },
      // 11:01, the window's first minute at 12:00 (12:00 − 59 min)
      { service: "web", minute: minute(T0 - 59 * MIN), calls: 3, tokens: 300 },
      // 11:00: out of the window
      { service: "web", minute: minute(T0 - 60 * MIN), calls: 100, tokens: 0 },
      { service: "api", minute: minute(T0), calls: 9, tokens: 90 },
      // two scorers' rows of one minute add up
      { service: "api", minute: minute(T0), calls: 0, tokens: 10 },
    ]);
    expect(b.groupInHour("web", T0)).toEqual({ calls: 7, tokens: 700 });
    expect(b.groupInHour("api", T0)).toEqual({ calls: 9, tokens: 100 });
    // web: 7 + 0 < 10 in; settled at 2 calls → 9 spent; 9 + 0 < 10 in (2 reserved); 9 + 2 ≥ 10 out
    const r1 = b.admit("web", T0, 2);
    if (!r1.ok) throw new Error("first web trace refused");
    b.settle(r1.reservation, { calls: 2, tokens: 150 }, T0);
    expect(b.spentInHour("web", T0)).toEqual({ calls: 9, tokens: 850 });
    expect(b.admit("web", T0, 2).ok).toBe(true);
    expect(b.admit("web", T0, 2)).toEqual({
      ok: false,
      reason:
        'judge budget of 10 calls per hour used by service "web" (9 in the last 60 minutes, 7 of them by other scorers of the group or before a restart, 2 more reserved by traces being judged; RAGMETER_JUDGE_CALLS_PER_HOUR)',
    });
    // a minute later the 11:01 row (3 calls) has left the window: 4 + 2 own = 6 spent, 2 reserved
    expect(b.spentInHour("web", T0 + MIN)).toEqual({ calls: 6, tokens: 550 });
    expect(b.admit("web", T0 + MIN, 2).ok).toBe(true);
    // api: 9 < 10 in, then 9 + 2 reserved ≥ 10
    expect(b.admit("api", T0, 2).ok).toBe(true);
    expect(b.admit("api", T0, 2)).toMatchObject({
      ok: false,
      reason: expect.stringContaining("(9 in the last 60 minutes, 9 of them by other scorers of the group or before a restart, 2 more reserved"),
    });
    // the next read replaces the last: the group spent nothing more
    b.setGroupSpend([]);
    expect(b.spentInHour("web", T0 + MIN)).toEqual({ calls: 2, tokens: 150 });
    // the observer saw this process's spend only
    expect(seen).toEqual([["web", 2]]);
  });
});

describe("judge failures by kind (the reasons the LLM judge gives)", () => {
  it.each([
    ["timed out: the judgment used its time budget of 200 ms (RAGMETER_JUDGE_TIMEOUT_MS)", "timeout"],
    ["judge call failed: 429 slow down", "rate_limited"],
    ["judge call failed: 429 slow down; the endpoint asked to wait 5.0 s (Retry-After), more than …", "rate_limited"],
    ["paused by the endpoint: the endpoint asked to wait 3.0 s (Retry-After), more than …", "rate_limited"],
    ["judge call failed: 503 overloaded", "server_error"],
    ["claims 9–16 of 20: judge call failed: 500 Internal Server Error", "server_error"],
    ["judge call failed: 401 Incorrect API key provided", "refused"],
    ["judge call failed: 408 Request Timeout", "timeout"],
    ["judge call failed: Connection error.", "connection"],
    ["reply truncated at 2048 tokens", "truncated"],
    ["reply is not JSON (after 2 attempts)", "bad_reply"],
    ['the claims do not cover the answer: 1 sentence(s) left out, the first: "x"', "uncovered_claims"],
    ["something new", "other"],
  ])("%s → %s", (reason, kind) => {
    expect(judgeFailureKind(reason)).toBe(kind);
  });
});

describe("spans with attributes dropped by their SDK", () => {
  const str = (key: string, value: string): KeyValue => ({ key, value: { stringValue: value } });
  const span = (name: string, dropped: { span?: number; event?: number; link?: number }): Span => ({
    traceId: "0af7651916cd43dd8448eb211c80319c",
    spanId: "b7ad6b7169203331",
    traceState: "",
    parentSpanId: "",
    flags: 0,
    name,
    kind: 1,
    startTimeUnixNano: 1n,
    endTimeUnixNano: 2n,
    attributes: [],
    droppedAttributesCount: dropped.span ?? 0,
    events: [{ timeUnixNano: 1n, name: "e", attributes: [], droppedAttributesCount: dropped.event ?? 0 }],
    droppedEventsCount: 0,
    links: [{ traceId: "4bf92f3577b34da6a3ce929d0e0e4736", spanId: "00f067aa0ba902b7", traceState: "", attributes: [], droppedAttributesCount: dropped.link ?? 0, flags: 0 }],
    droppedLinksCount: 0,
    status: { code: 0, message: "" },
  });
  const request = (groups: [string | null, Span[]][]): TraceRequest => ({
    resourceSpans: groups.map(([service, spans]) => ({
      resource: { attributes: service === null ? [] : [str("service.name", service)], droppedAttributesCount: 0, entityRefs: [] },
      scopeSpans: [{ scope: { name: "s", version: "", attributes: [], droppedAttributesCount: 0 }, spans, schemaUrl: "" }],
      schemaUrl: "",
    })),
  });

  it("counts spans with dropped attributes on the span, an event or a link, by service; the first of each is kept for the warning", () => {
    const d = droppedAttributesOf(
      request([
        ["rag", [span("retrieve", { span: 12 }), span("ok", {}), span("generate", { event: 3 })]],
        ["other", [span("call", { link: 1 })]],
        [null, [span("anon", { span: 1 })]],
      ]),
    );
    expect(d?.byService).toEqual({ rag: 2, other: 1, "": 1 });
    expect(d?.first).toEqual({ rag: { span: "retrieve", on: "span", dropped: 12 }, other: { span: "call", on: "link", dropped: 1 }, "": { span: "anon", on: "span", dropped: 1 } });
    expect(droppedAttributesOf(request([["rag", [span("ok", {})]]]))).toBeNull();
  });

  it("the warning names the service, the span and the setting that fixes it", () => {
    expect(droppedAttributesWarning("rag", { span: "retrieve", on: "span", dropped: 12 })).toBe(
      'service "rag" sends spans whose attributes its OpenTelemetry SDK dropped (12 on span "retrieve"): raise OTEL_SPAN_ATTRIBUTE_COUNT_LIMIT (or OTEL_ATTRIBUTE_COUNT_LIMIT; the SDK default is 128) in that service, or retrieved documents and messages past the limit are lost before ragmeter sees them',
    );
    expect(droppedAttributesWarning("", { span: "generate", on: "event", dropped: 3 })).toMatch(
      /^spans without a service\.name .*\(3 on an event of span "generate"\): raise OTEL_EVENT_ATTRIBUTE_COUNT_LIMIT /u,
    );
  });
});

describe("the settings", () => {
  it("per-service maps parse; a bad entry is one line naming the variable", () => {
    const c = loadStreamConfig({
      RAGMETER_LIVE_SAMPLE_RATE: "0.2",
      RAGMETER_LIVE_SAMPLE_RATE_BY_SERVICE: "checkout=1, search = 0.05",
      RAGMETER_JUDGE_CALLS_PER_HOUR: "500",
      RAGMETER_JUDGE_TOKENS_PER_HOUR_BY_SERVICE: "checkout=2000000",
    });
    expect([c.liveSampleRate, c.liveSampleRates]).toEqual([0.2, { checkout: 1, search: 0.05 }]);
    expect(c.judgeBudget).toEqual({ calls: { perService: 500, byService: {} }, tokens: { perService: null, byService: { checkout: 2_000_000 } } });
    expect(() => loadStreamConfig({ RAGMETER_LIVE_SAMPLE_RATE_BY_SERVICE: "checkout" })).toThrow(
      'environment variable RAGMETER_LIVE_SAMPLE_RATE_BY_SERVICE: must be service=rate,… (bad entry "checkout")',
    );
    expect(() => loadStreamConfig({ RAGMETER_LIVE_SAMPLE_RATE_BY_SERVICE: "checkout=2" })).toThrow(/^environment variable RAGMETER_LIVE_SAMPLE_RATE_BY_SERVICE: /u);
    expect(() => loadStreamConfig({ RAGMETER_JUDGE_CALLS_PER_HOUR_BY_SERVICE: "a=1.5" })).toThrow(/^environment variable RAGMETER_JUDGE_CALLS_PER_HOUR_BY_SERVICE: /u);
    expect(() => loadStreamConfig({ RAGMETER_JUDGE_TOKENS_PER_HOUR: "0" })).toThrow(/^environment variable RAGMETER_JUDGE_TOKENS_PER_HOUR: /u);
  });
});
