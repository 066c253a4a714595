import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StoredSpan } from "../../core/src/domain/spans.js";
import { createHeuristicJudge } from "../../core/src/judges/heuristic/heuristicJudge.js";
import { openStore, type Store } from "../../store/src/client.js";
import { saveSpans } from "../../store/src/spans.js";
import { HeldTraces } from "../../stream/src/held.js";
import { writeRecords } from "../../stream/src/ingest.js";
import { type ScoringSettings, scoreTraces } from "../../stream/src/loop.js";

const settings: ScoringSettings = { judge: createHeuristicJudge(), ks: [1, 3], quietMs: 0, liveSampleRate: 1, concurrency: 2, batchSize: 100 };

const retrieval = (trace: string, question: string, docs: { id: string; document_id: string; content: string; score: number }[]): StoredSpan => ({
  trace_id: trace,
  span_id: `${trace.slice(0, 12)}0001`,
  parent_span_id: "",
  name: "retrieval kb",
  kind: 1,
  start_time_unix_nano: "1764460800000000000",
  end_time_unix_nano: "1764460800001000000",
  status_code: 0,
  attributes: { "gen_ai.operation.name": "retrieval", "gen_ai.retrieval.query.text": question, "gen_ai.retrieval.documents": JSON.stringify(docs) },
  resource_attributes: { "service.name": "svc" },
  scope_name: "test",
  events: [],
  service_name: "svc",
});
const chat = (trace: string, answer: string): StoredSpan => ({
  trace_id: trace,
  span_id: `${trace.slice(0, 12)}0002`,
  parent_span_id: "",
  name: "chat gen",
  kind: 1,
  start_time_unix_nano: "1764460800010000000",
  end_time_unix_nano: "1764460800020000000",
  status_code: 0,
  attributes: {
    "gen_ai.operation.name": "chat",
    "gen_ai.request.model": "gen-1",
    "gen_ai.usage.input_tokens": 420,
    "gen_ai.usage.output_tokens": 24,
    "gen_ai.output.messages": JSON.stringify([{ role: "assistant", parts: [{ type: "text", content: answer }] }]),
  },
  resource_attributes: { "service.name": "svc" },
  scope_name: "test",
  events: [],
  service_name: "svc",
});
const trace = (i: number): StoredSpan[] => {
  const id = `${String(i).padStart(4, "0")}${"ab".repeat(14)}`;
  const docs = [
    { id: `plans.md#${i}`, document_id: "plans.md", content: `Plan ${i} includes ${i + 2} vCPUs and 8 GB of memory.`, score: 0.9 },
    { id: "backups.md#1", document_id: "backups.md", content: "Backups are kept for 14 days.", score: 0.4 },
  ];
  return [retrieval(id, `How many vCPUs does plan ${i} include?`, docs), chat(id, i % 2 === 0 ? `Plan ${i} includes ${i + 2} vCPUs.` : "Backups are kept for 30 days.")];
};

/** A store that records the statements sent to it. */
async function recordingStore(): Promise<{ store: Store; queries: string[] }> {
  const store = await openStore({ kind: "embedded", home: await mkdtemp(path.join(tmpdir(), "ragmeter-held-")), database: "ragmeter" });
  const queries: string[] = [];
  const query = store.client.query.bind(store.client);
  store.client.query = ((p: Parameters<typeof query>[0]) => {
    queries.push(p.query);
    return query(p);
  }) as typeof store.client.query;
  return { store, queries };
}
const readBacks = (queries: readonly string[]): number => queries.filter((q) => /FROM ragmeter\.spans FINAL WHERE trace_id IN/u.test(q)).length;

// One engine per process: both paths run on the same store (scoring again is harmless: keyed rows).
let a: { store: Store; queries: string[] };
beforeAll(async () => {
  a = await recordingStore();
});
afterAll(async () => {
  await a?.store.close();
});

describe("the streaming scorer scores the traces it wrote from their decoded spans (issue 15)", () => {
  it("gives the same interactions and results as the read-back, and reads nothing back", async () => {
    const spans = Array.from({ length: 6 }, (_, i) => trace(i)).flat();
    const ids = [...new Set(spans.map((s) => s.trace_id))];
    const held = new HeldTraces(100);
    const wa = await writeRecords(a.store, [{ spans, logs: [] }], { partition: 0, offset: "1" }, Date.now());
    held.add(wa.stored.spans, wa.stored.logs);
    a.queries.length = 0;
    const fromMemory = await scoreTraces(a.store, settings, ids, held);
    expect(readBacks(a.queries)).toBe(0);
    const readBack = await scoreTraces(a.store, settings, ids, null);
    expect(readBacks(a.queries)).toBe(1);
    expect(fromMemory.map((s) => s.interaction)).toEqual(readBack.map((s) => s.interaction));
    // Judge latencies are measured, so they differ between the two runs.
    const timeless = (x: unknown): unknown => JSON.parse(JSON.stringify(x, (k, v: unknown) => (k === "latency_ms" ? undefined : v)));
    expect(timeless(fromMemory.map((s) => s.result))).toEqual(timeless(readBack.map((s) => s.result)));
    expect(fromMemory.map((s) => s.result.metrics["grounding"]?.value)).toEqual([1, 0, 1, 0, 1, 0]);
    // Independent of either path: the even traces answer from their first chunk, the odd ones do not.
    expect(fromMemory.map((s) => s.interaction.retrieved?.length)).toEqual([2, 2, 2, 2, 2, 2]);
    expect(fromMemory.map((s) => s.interaction.answer)).toEqual(ids.map((_, i) => (i % 2 === 0 ? `Plan ${i} includes ${i + 2} vCPUs.` : "Backups are kept for 30 days.")));
  });

  it("reads back a trace whose store has spans it did not hold (another instance wrote them), and scores all of them", async () => {
    const [r, g] = trace(40) as [StoredSpan, StoredSpan];
    // The retrieval span was stored by another scorer (before a rebalance): not held here.
    await saveSpans(a.store, [r], { partition: 1, offset: "7" }, Date.now());
    const held = new HeldTraces(100);
    const w = await writeRecords(a.store, [{ spans: [g], logs: [] }], { partition: 1, offset: "8" }, Date.now());
    held.add(w.stored.spans, w.stored.logs);
    expect(held.get(g.trace_id)?.spans.length).toBe(1);
    a.queries.length = 0;
    const [scored] = await scoreTraces(a.store, settings, [g.trace_id], held);
    expect(readBacks(a.queries)).toBe(1);
    expect(scored?.interaction.question).toBe("How many vCPUs does plan 40 include?");
    expect(scored?.interaction.retrieved?.map((x) => x.id)).toEqual(["plans.md#40", "backups.md#1"]);
    expect(scored?.interaction.answer).toBe("Plan 40 includes 42 vCPUs.");
  });

  it("reads back a held trace whose span the store has twice (a redelivery not merged yet)", async () => {
    const spans = trace(41);
    const held = new HeldTraces(100);
    await saveSpans(a.store, spans.slice(0, 1), { partition: 2, offset: "1" }, Date.now());
    const w = await writeRecords(a.store, [{ spans, logs: [] }], { partition: 2, offset: "2" }, Date.now());
    held.add(w.stored.spans, w.stored.logs);
    expect(held.get(spans[0]?.trace_id ?? "")?.spans.length).toBe(2);
    a.queries.length = 0;
    const [scored] = await scoreTraces(a.store, settings, [spans[0]?.trace_id ?? ""], held);
    expect(readBacks(a.queries)).toBe(1);
    expect(scored?.interaction.answer).toBe("Backups are kept for 30 days.");
  });
});
