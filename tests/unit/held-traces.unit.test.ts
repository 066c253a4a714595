import { describe, expect, it } from "vitest";
import type { StoredLog, StoredSpan } from "../../core/src/domain/spans.js";
import { HeldTraces, heldLogSize, heldSpanSize } from "../../stream/src/held.js";

const span = (trace: string, id: string, start: string, name = `op ${id}`): StoredSpan => ({
  trace_id: trace,
  span_id: id,
  parent_span_id: "",
  name,
  kind: 1,
  start_time_unix_nano: start,
  end_time_unix_nano: start,
  status_code: 0,
  attributes: {},
  resource_attributes: {},
  scope_name: "",
  events: [],
  service_name: "svc",
});
const log = (trace: string, spanId: string, record: string, time: string): StoredLog => ({
  trace_id: trace,
  span_id: spanId,
  record_id: record,
  event_name: "gen_ai.user.message",
  time_unix_nano: time,
  body: record,
  attributes: {},
});

describe("held traces (the streaming scorer's decoded spans, issue 15)", () => {
  it('gives a trace\'s spans and records in the store\'s read order: time as text ("10" before "9"), then id', () => {
    const h = new HeldTraces(10);
    h.add([span("t", "s9", "9"), span("t", "b", "100"), span("u", "x", "1")], [log("t", "s9", "r2", "20")]);
    h.add([span("t", "a", "100"), span("t", "s10", "10")], [log("t", "s9", "r1", "3"), log("t", "s9", "r0", "20")]);
    const t = h.get("t");
    expect(t?.spans.map((s) => s.span_id)).toEqual(["s10", "a", "b", "s9"]);
    // Times "20", "3", "20" as text: "20" < "3".
    expect(t?.logs.map((l) => l.record_id)).toEqual(["r0", "r2", "r1"]);
    expect(h.get("u")?.spans.map((s) => s.span_id)).toEqual(["x"]);
    expect(h.get("none")).toBeNull();
  });

  it("a span or record written again replaces the held one (the store's key), so counts match the store's after a merge", () => {
    const h = new HeldTraces(10);
    h.add([span("t", "a", "1", "first")], [log("t", "a", "r", "1")]);
    h.add([span("t", "a", "1", "again")], [log("t", "a", "r", "1")]);
    expect(h.get("t")?.spans.map((s) => s.name)).toEqual(["again"]);
    expect(h.get("t")?.logs.length).toBe(1);
    // The same record id under another span is another key.
    h.add([], [log("t", "b", "r", "1")]);
    expect(h.get("t")?.logs.length).toBe(2);
  });

  it("holds at most `max` traces: a trace first seen at the bound is not held, held ones still grow; delete frees room", () => {
    const h = new HeldTraces(2);
    h.add([span("t1", "a", "1"), span("t2", "a", "1"), span("t3", "a", "1")], []);
    expect(h.size).toBe(2);
    expect(h.get("t3")).toBeNull();
    h.add([span("t1", "b", "2")], []);
    expect(h.get("t1")?.spans.length).toBe(2);
    h.delete("t1");
    expect(h.get("t1")).toBeNull();
    h.add([span("t3", "b", "2")], []);
    expect(h.get("t3")?.spans.map((s) => s.span_id)).toEqual(["b"]);
    expect(h.size).toBe(2);
  });
});

describe("held traces: the bound on their text (issue 38)", () => {
  const sized = (trace: string, id: string): StoredSpan => ({
    ...span(trace, id, "1", "op a"),
    // keys and strings by their length, a number 8: k 1+5, n 1+8, arr 3+2+1, obj 3+(1+2) = 27
    attributes: { k: "hello", n: 5, arr: ["ab", "c"], obj: { x: "yz" } },
    // "service.name" 12 + "svc" 3
    resource_attributes: { "service.name": "svc" },
    // "e1" 2 + "q" 1 + "w" 1
    events: [{ name: "e1", time_unix_nano: "1", attributes: { q: "w" } }],
  });

  it("counts a span's text by hand: 200 for the item, its name, attributes, resource and events", () => {
    expect(heldSpanSize(sized("t", "a"))).toBe(200 + 4 + 27 + 15 + 4);
    // a record: 200, its body (a string) and its attributes
    expect(heldLogSize({ ...log("t", "a", "r", "1"), body: "twelve chars", attributes: { role: "user" } })).toBe(200 + 12 + 4 + 4);
  });

  it("a span that would take the text past the bound drops its trace; the total never passes it; delete and a re-sent span count right", () => {
    const h = new HeldTraces(100, 600);
    h.add([sized("t1", "a"), sized("t2", "a")], []);
    expect(h.heldSize).toBe(500);
    // 750 > 600: t3 is dropped as its span comes in, and so is t4
    h.add([sized("t3", "a"), sized("t4", "a")], []);
    expect(h.size).toBe(2);
    expect(h.heldSize).toBe(500);
    expect(h.get("t3")).toBeNull();
    expect(h.get("t4")).toBeNull();
    // the same span again replaces itself: its size is not counted twice
    h.add([sized("t1", "a")], []);
    expect(h.heldSize).toBe(500);
    // a held trace whose next span would pass the bound is dropped whole (read back when scored)
    h.add([sized("t1", "b")], []);
    expect(h.get("t1")).toBeNull();
    expect(h.heldSize).toBe(250);
    h.add([sized("t1", "b")], []);
    expect(h.get("t1")?.spans.map((s) => s.span_id)).toEqual(["b"]);
    expect(h.heldSize).toBe(500);
    h.delete("t2");
    h.delete("none");
    expect(h.heldSize).toBe(250);
    expect(h.get("t2")).toBeNull();
  });
});
