/**
 * The collector's pure parts (issue 30: startCollector and createKafkaSink split into modules of
 * one job), each alone; expected values worked out by hand in the comments.
 */
import { describe, expect, it } from "vitest";
import { KafkaUnavailableError, OverloadedError, PayloadTooLargeError, UnauthorizedError, UnsupportedMediaTypeError } from "../../collector/src/errors.js";
import { createInflightBudget, newRequestState } from "../../collector/src/http/budget.js";
import { decodeFailure, summarise } from "../../collector/src/http/decode.js";
import { traceContextOf } from "../../collector/src/http/export.js";
import { baseUrlOf } from "../../collector/src/http/listen.js";
import { expectedAuthorization, preflight } from "../../collector/src/http/preflight.js";
import { readinessAnswer } from "../../collector/src/http/readiness.js";
import { grpcCodeOf } from "../../collector/src/http/respond.js";
import { routeOf } from "../../collector/src/http/routes.js";
import type { RecordSink } from "../../collector/src/kafka-sink.js";
import { acknowledge, failChunk, type Job, type Queued, takeChunk } from "../../collector/src/producer/queue.js";
import { recordHeaderSet, toProducedRecords } from "../../collector/src/producer/records.js";
import { inBackoff, newSinkState } from "../../collector/src/producer/state.js";
import { causeOf } from "../../collector/src/producer/warnings.js";

describe("http/routes", () => {
  it("routes the export paths by method and path, query string ignored", () => {
    expect(routeOf("POST", "/v1/traces?x=1")).toEqual({ kind: "export", signal: "traces" });
    expect(routeOf("POST", "/v1/logs")).toEqual({ kind: "export", signal: "logs" });
    expect(routeOf("HEAD", "/healthz")).toEqual({ kind: "healthz" });
    expect(routeOf("GET", "/readyz?verbose")).toEqual({ kind: "readyz" });
    // A POST to /healthz or a GET of /v1/traces is nobody's route here.
    expect(routeOf("POST", "/healthz")).toEqual({ kind: "other", method: "POST", path: "/healthz" });
    expect(routeOf("GET", "/v1/traces")).toEqual({ kind: "other", method: "GET", path: "/v1/traces" });
    expect(routeOf(undefined, undefined)).toEqual({ kind: "other", method: "GET", path: "/" });
  });
});

describe("http/budget", () => {
  it("holds each request's bytes, refuses past the limit while others hold some, and returns a share once", () => {
    const counters = { inflightBytes: 0, peakInflightBytes: 0 };
    let degraded = false;
    const budget = createInflightBudget(counters, 100, () => degraded);
    const a = newRequestState();
    const b = newRequestState();
    budget.reserve(a, 60);
    expect(counters).toEqual({ inflightBytes: 60, peakInflightBytes: 60 });
    // 60 + 50 = 110 > 100 with 60 in flight: 429, or 503 while Kafka is down.
    expect(() => budget.reserve(b, 50)).toThrow(OverloadedError);
    degraded = true;
    expect(() => budget.reserve(b, 50)).toThrow(KafkaUnavailableError);
    budget.release(a);
    budget.release(a);
    expect(counters).toEqual({ inflightBytes: 0, peakInflightBytes: 60 });
    // Nothing else in flight: one request may exceed the limit alone.
    budget.reserve(b, 150);
    expect(counters).toEqual({ inflightBytes: 150, peakInflightBytes: 150 });
    budget.release(b);
    budget.reserve(b, 10); // released: no more bytes held for it
    expect(counters.inflightBytes).toBe(0);
  });
});

describe("http/preflight", () => {
  const token = expectedAuthorization("s3cret");
  const proto = { "content-type": "application/x-protobuf" };
  it("returns the bytes to reserve: the declared length, else min(limit, 64 KiB)", () => {
    expect(preflight({ ...proto, authorization: "bearer s3cret", "content-length": "500" }, token, 1_000)).toBe(500);
    expect(preflight({ ...proto, authorization: "Bearer s3cret" }, token, 1_000)).toBe(1_000);
    expect(preflight({ ...proto, "content-encoding": " GZIP " }, undefined, 1_000_000)).toBe(65_536);
  });
  it("refuses a wrong token (401), an unknown encoding (415) and a declared length past the limit (413)", () => {
    expect(() => preflight({ ...proto, authorization: "Bearer S3cret" }, token, 1_000)).toThrow(UnauthorizedError);
    expect(() => preflight({ ...proto, "content-encoding": "br" }, undefined, 1_000)).toThrow(UnsupportedMediaTypeError);
    expect(() => preflight({ ...proto, "content-length": "1001" }, undefined, 1_000)).toThrow(PayloadTooLargeError);
  });
});

describe("http/decode", () => {
  it("summarises the first errors and counts the rest", () => {
    expect(summarise(["a", "b"])).toBe("a; b");
    expect(summarise(["a", "b", "c", "d", "e", "f", "g"])).toBe("a; b; c; d; e; and 2 more");
    expect(summarise(["a", "b", "c"], 2)).toBe("a; b; and 1 more");
  });
  it("names the first error's field when every item is invalid", () => {
    const e = decodeFailure(["spans[0].traceId: must be 16 bytes", "spans[1].name: missing"], "span");
    expect(e.field).toBe("spans[0].traceId");
    expect(e.message).toBe("spans[0].traceId: must be 16 bytes (every span of the request is invalid; spans[1].name: missing)");
    expect(decodeFailure(["garbage"], "log record").message).toBe("body: garbage (every log record of the request is invalid)");
  });
});

describe("http parts: responses, trace context, URL, readiness", () => {
  it("maps HTTP statuses to gRPC codes (UNKNOWN = 2 for others)", () => {
    expect([400, 401, 413, 429, 503, 404].map(grpcCodeOf)).toEqual([3, 16, 8, 8, 14, 2]);
  });
  it("copies only non-empty trace context headers", () => {
    expect(traceContextOf({ traceparent: "00-ab", tracestate: "", baggage: "k=v", "x-other": "1" })).toEqual({ traceparent: "00-ab", baggage: "k=v" });
  });
  it("reports a wildcard address as 127.0.0.1 and brackets IPv6", () => {
    expect(baseUrlOf({ address: "0.0.0.0", port: 4318 })).toBe("http://127.0.0.1:4318");
    expect(baseUrlOf({ address: "::", port: 80 })).toBe("http://127.0.0.1:80");
    expect(baseUrlOf({ address: "::1", port: 4318 })).toBe("http://[::1]:4318");
  });
  it("answers /readyz from the sink's readiness, 503 while closing", async () => {
    const sink = (r: Partial<RecordSink>): RecordSink => ({ send: async () => {}, ready: async () => true, degraded: () => false, close: async () => {}, ...r });
    expect(await readinessAnswer(true, sink({}))).toEqual({ status: 503, body: { status: "closing" } });
    expect(await readinessAnswer(false, sink({}))).toEqual({ status: 200, body: { status: "ready" } });
    expect(await readinessAnswer(false, sink({ ready: async () => false }))).toEqual({ status: 503, body: { status: "kafka unreachable" } });
    const missing = sink({ readiness: async () => ({ ready: false, reason: "topic missing", topic: "t" }) });
    expect(await readinessAnswer(false, missing)).toEqual({ status: 503, body: { status: "topic missing", topic: "t" } });
  });
});

describe("producer/queue (group commit)", () => {
  const job = (remaining: number, done = false) => {
    const settled: string[] = [];
    const j: Job = {
      remaining,
      held: remaining,
      release: () => settled.push("released"),
      done,
      resolve: () => settled.push("ok"),
      reject: (e) => settled.push(String((e as Error).message)),
    };
    return { j, settled };
  };
  const q = (j: Job, size: number): Queued => ({ job: j, record: { topic: "t", value: Buffer.alloc(0) }, size });

  it("takes records up to maxBytes, skipping settled jobs' records, and leaves the rest queued", () => {
    const a = job(4).j;
    const b = job(1, true).j;
    const queue = [q(a, 40), q(b, 30), q(a, 50), q(a, 20)];
    // 40, (30 settled: dropped), 40 + 50 = 90 ≤ 100, 90 + 20 = 110 > 100: stop.
    expect(takeChunk(queue, 100).map((x) => x.size)).toEqual([40, 50]);
    expect(queue.map((x) => x.size)).toEqual([20]);
    // A record over the limit goes alone.
    const big = [q(a, 150), q(a, 1)];
    expect(takeChunk(big, 100).map((x) => x.size)).toEqual([150]);
    expect(takeChunk([q(b, 5)], 100)).toEqual([]);
  });
  it("resolves a job with its last acknowledged record; a failed chunk rejects it once", () => {
    const { j, settled } = job(2);
    acknowledge([q(j, 1)]);
    expect([j.remaining, j.done, settled]).toEqual([1, false, []]);
    acknowledge([q(j, 1)]);
    expect([j.remaining, j.done, settled]).toEqual([0, true, ["ok", "released"]]);
    const other = job(2);
    failChunk([q(other.j, 1), q(other.j, 1)], (c) => new Error(`failed: ${String(c)}`), "boom");
    expect(other.settled).toEqual(["failed: boom", "released"]);
  });
  it("gives a job's buffer back only once no produce call or queue holds one of its records", () => {
    // 3 records: one acknowledged, one in a chunk that fails later, one still queued when the job fails.
    const { j, settled } = job(3);
    const first = q(j, 1);
    const second = q(j, 1);
    const third = q(j, 1);
    acknowledge([first]);
    failChunk([second], () => new Error("failed"), "x");
    // The job failed, but the third record is still queued (the producer could still take it): not released.
    expect(settled).toEqual(["failed"]);
    expect(j.held).toBe(1);
    // The queue drops the settled job's record: now nothing holds it.
    expect(takeChunk([third], 100)).toEqual([]);
    expect(settled).toEqual(["failed", "released"]);
    // A job that timed out while its records were in a produce call: released when that call settles.
    const late = job(2);
    const inFlight = [q(late.j, 1), q(late.j, 1)];
    late.j.done = true; // the send timeout fired
    acknowledge(inFlight.slice(0, 1));
    expect(late.settled).toEqual([]);
    failChunk(inFlight.slice(1), () => new Error("late"), "y");
    expect(late.settled).toEqual(["released"]);
  });
});

describe("producer/records", () => {
  it("gives every record the same header bytes and a size of value + key + headers + 64", () => {
    const out = toProducedRecords("t", "traces", { traceparent: "00-ab" }, [
      { key: "k1", value: new Uint8Array(10), items: 1 },
      { key: null, value: new Uint8Array(3), items: 1 },
    ]);
    // Headers: traceparent (11) + "00-ab" (5) + 8 = 24; ragmeter-signal (15) + "traces" (6) + 8 = 29; 53 in all.
    expect(out.map((r) => r.size)).toEqual([10 + 2 + 53 + 64, 3 + 0 + 53 + 64]);
    expect(out[0]!.record.key?.toString()).toBe("k1");
    expect("key" in out[1]!.record).toBe(false);
    const headers = [...(out[0]!.record.headers as Map<Buffer, Buffer>)].map(([k, v]) => `${k}=${v}`);
    expect(headers).toEqual(["traceparent=00-ab", "ragmeter-signal=traces"]);
    expect(out[1]!.record.headers).toBe(out[0]!.record.headers);
  });

  it("takes a header set made once (the sink's for requests without trace context)", () => {
    const set = recordHeaderSet("logs", {});
    // ragmeter-signal (15) + "logs" (4) + 8 = 27.
    expect(set.size).toBe(27);
    expect([...set.bytes].map(([k, v]) => `${k}=${v}`)).toEqual(["ragmeter-signal=logs"]);
    const a = toProducedRecords("t", "logs", {}, [{ key: "k", value: new Uint8Array(5), items: 1 }], set);
    const b = toProducedRecords("t", "logs", {}, [{ key: "k", value: new Uint8Array(5), items: 1 }], set);
    expect(a[0]!.record.headers).toBe(set.bytes);
    expect(b[0]!.record.headers).toBe(set.bytes);
    expect(a[0]!.size).toBe(5 + 1 + 27 + 64);
  });
});

describe("producer/state and warnings", () => {
  it("is in back-off for backoffMs after the last failure", () => {
    const s = newSinkState();
    s.lastFailure = 1_000;
    expect([inBackoff(s, 500, 1_499), inBackoff(s, 500, 1_500)]).toEqual([true, false]);
  });
  it("takes a failure's cause without the client's bracketed detail", () => {
    expect(causeOf("SASL authentication failed [produce to t]")).toBe("SASL authentication failed");
    expect(causeOf("connection refused")).toBe("connection refused");
  });
});
