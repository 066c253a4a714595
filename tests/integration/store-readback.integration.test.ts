import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StoredLog, StoredSpan } from "../../core/src/domain/spans.js";
import { openStore, type Store } from "../../store/src/client.js";
import { loadTraces, saveLogs, saveSpans } from "../../store/src/spans.js";
import { rows } from "../helpers/streaming.js";

let store: Store;
beforeAll(async () => {
  store = await openStore({ kind: "embedded", home: await mkdtemp(path.join(tmpdir(), "ragmeter-readback-")), database: "ragmeter" });
});
afterAll(async () => {
  await store?.close();
});

const span = (trace: string, id: string, start: string, attributes: StoredSpan["attributes"] = {}): StoredSpan => ({
  trace_id: trace,
  span_id: id,
  parent_span_id: "",
  name: `op ${id}`,
  kind: 1,
  start_time_unix_nano: start,
  end_time_unix_nano: "18446744073709551615",
  status_code: 0,
  attributes,
  resource_attributes: { "service.name": "svc" },
  scope_name: "scope",
  events: [{ name: "e", time_unix_nano: "5", attributes: { n: 1 } }],
  service_name: "svc",
});
const log = (trace: string, id: string, time: string): StoredLog => ({
  trace_id: trace,
  span_id: "s1",
  record_id: id,
  event_name: "gen_ai.user.message",
  time_unix_nano: time,
  body: { content: `body ${id}` },
  attributes: { k: id },
});

describe("spans written as compact rows and read back in the engine's order (issue 15)", () => {
  it("every column is stored as written, the 64-bit times exact", async () => {
    const s = span("tw", "a1", "1764460800000000001", { "gen_ai.retrieval.documents": '[{"id":"d#1","content":"x \\"q\\" ü"}]', big: "9007199254740993", n: 3, ok: true });
    await saveSpans(store, [s], { partition: 2, offset: "41" }, Date.UTC(2026, 0, 2, 3, 4, 5, 678));
    const [r] = await rows<Record<string, unknown>>(
      store,
      `SELECT trace_id, span_id, parent_span_id, name, kind, toString(start_time_unix_nano) AS st, toString(end_time_unix_nano) AS et, status_code, scope_name, service_name,
         attributes, resource_attributes, events, toString(received_at) AS received_at, kafka_partition, toString(kafka_offset) AS kafka_offset
       FROM ragmeter.spans FINAL WHERE trace_id = 'tw'`,
    );
    expect(r).toEqual({
      trace_id: "tw",
      span_id: "a1",
      parent_span_id: "",
      name: "op a1",
      kind: 1,
      st: "1764460800000000001",
      et: "18446744073709551615",
      status_code: 0,
      scope_name: "scope",
      service_name: "svc",
      attributes: JSON.stringify(s.attributes),
      resource_attributes: '{"service.name":"svc"}',
      events: '[{"name":"e","time_unix_nano":"5","attributes":{"n":1}}]',
      received_at: "2026-01-02 03:04:05.678",
      kafka_partition: 2,
      kafka_offset: "41",
    });
  });

  it('a trace\'s spans and log records come back in the order ORDER BY on their time text gave ("10" before "9"), ties by id', async () => {
    // Written out of order, over two inserts (two parts), with start times of different lengths.
    await saveSpans(store, [span("to", "s9", "9"), span("to", "b", "100"), span("other", "x", "1")], { partition: 0, offset: "1" }, Date.now());
    await saveSpans(store, [span("to", "a", "100"), span("to", "s10", "10")], { partition: 0, offset: "2" }, Date.now());
    await saveLogs(store, [log("to", "r2", "20"), log("to", "r1", "3")], Date.now());
    await saveLogs(store, [log("to", "r0", "20")], Date.now());
    const got = (await loadTraces(store, ["to", "missing"])).get("to");
    // Independent: the engine's own ORDER BY over the same rows.
    const spanIds = await rows<{ span_id: string }>(
      store,
      "SELECT span_id, toString(start_time_unix_nano) AS st FROM ragmeter.spans FINAL WHERE trace_id = 'to' ORDER BY st, span_id",
    );
    const logIds = await rows<{ record_id: string }>(store, "SELECT record_id, toString(time_unix_nano) AS t FROM ragmeter.logs FINAL WHERE trace_id = 'to' ORDER BY t, record_id");
    expect(got?.spans.map((s) => s.span_id)).toEqual(spanIds.map((r) => r.span_id));
    expect(got?.spans.map((s) => s.span_id)).toEqual(["s10", "a", "b", "s9"]);
    expect(got?.logs.map((l) => l.record_id)).toEqual(logIds.map((r) => r.record_id));
    expect(got?.logs.map((l) => l.record_id)).toEqual(["r0", "r2", "r1"]);
    expect(got?.spans[0]).toEqual(span("to", "s10", "10"));
  });
});
