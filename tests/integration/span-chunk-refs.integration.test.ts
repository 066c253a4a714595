import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StoredSpan } from "../../core/src/domain/spans.js";
import { createHeuristicJudge } from "../../core/src/judges/heuristic/heuristicJudge.js";
import { rescore } from "../../scorer/src/runs/rescore.js";
import { openStore, type Store } from "../../store/src/client.js";
import { forgetTraces } from "../../store/src/forget.js";
import { RecentChunks } from "../../store/src/recentChunks.js";
import { saveResults } from "../../store/src/results.js";
import { loadTraces } from "../../store/src/spans.js";
import { writeRecords } from "../../stream/src/ingest.js";
import { scoreSettledTraces } from "../../stream/src/loop.js";
import { freshDatabase } from "../helpers/freshDatabase.js";
import { UNMEASURED_INTERACTION } from "../helpers/interactionRow.js";
import { storedSpan } from "../helpers/storedSpan.js";
import { rows } from "../helpers/streaming.js";

let base: Store;
beforeAll(async () => {
  base = await openStore({ kind: "embedded", home: await mkdtemp(path.join(tmpdir(), "ragmeter-chunkrefs-")), database: "ragmeter" });
});
afterAll(async () => {
  await base?.close();
});

const fresh = (): Promise<Store> => freshDatabase(base);

// Independent of chunkHash: SHA-256 hex, first 32 digits.
const sha = (t: string): string => createHash("sha256").update(t, "utf8").digest("hex").slice(0, 32);

const SHARED = "Refunds are possible within 30 days of the payment, on presentation of the receipt at any store.";
const ONLY_A = "Gift cards cannot be refunded; they stay valid for three years from the day they were bought.";
const ONLY_B = 'Shipping takes five working days inside the country, "express" two — доставка в другие страны дольше.';

const span = (trace: string, id: string, parent: string, start: string, attributes: StoredSpan["attributes"]): StoredSpan =>
  storedSpan(trace, "svc-refs", id, parent, start, attributes);

/** An OpenInference RAG trace: a CHAIN root, a RETRIEVER span with `texts`, an LLM span. */
function ragTrace(trace: string, texts: readonly string[]): StoredSpan[] {
  const root = `${trace.slice(0, 14)}01`;
  const question = "Can I get my money back?";
  const answer = `${texts[0]?.split(";")[0] ?? "No."}.`;
  return [
    span(trace, root, "", "1764460800000000000", { "openinference.span.kind": "CHAIN", "input.value": question, "output.value": answer }),
    span(trace, `${trace.slice(0, 14)}02`, root, "1764460800000000100", {
      "openinference.span.kind": "RETRIEVER",
      "input.value": question,
      ...Object.fromEntries(
        texts.flatMap((t, i) => [
          [`retrieval.documents.${i}.document.id`, `kb/${sha(t).slice(0, 6)}`],
          [`retrieval.documents.${i}.document.content`, t],
          [`retrieval.documents.${i}.document.score`, 0.9 - i / 10],
          [`retrieval.documents.${i}.document.metadata`, JSON.stringify({ document_id: "faq.md" })],
        ]),
      ),
    }),
    span(trace, `${trace.slice(0, 14)}03`, root, "1764460800000000200", {
      "openinference.span.kind": "LLM",
      "llm.model_name": "gpt-test",
      "llm.input_messages.0.message.role": "user",
      "llm.input_messages.0.message.content": question,
      "llm.output_messages.0.message.role": "assistant",
      "llm.output_messages.0.message.content": answer,
    }),
  ];
}

const A = "a1".repeat(16);
const B = "b2".repeat(16);
const origin = { partition: -1, offset: "-1" };

describe("spans keep chunk hashes, the chunk table the texts (issue 38, design §6 spans.chunk_hashes)", () => {
  it("stored: references in place of the texts, the hashes beside them, each text once in chunks; read back: the spans exactly as written", async () => {
    const store = await fresh();
    const a = ragTrace(A, [SHARED, ONLY_A, "short one", ""]);
    const b = ragTrace(B, [ONLY_B, SHARED]);
    await writeRecords(store, [{ spans: a, logs: [] }], origin, Date.now());
    await writeRecords(store, [{ spans: b, logs: [] }], origin, Date.now());
    const stored = await rows<{ trace_id: string; attributes: string; chunk_hashes: string[] }>(
      store,
      "SELECT trace_id, attributes, chunk_hashes FROM DB.spans FINAL WHERE notEmpty(chunk_hashes) ORDER BY trace_id",
    );
    expect(stored.map((r) => [r.trace_id, r.chunk_hashes])).toEqual([
      [A, [sha(SHARED), sha(ONLY_A)]],
      [B, [sha(ONLY_B), sha(SHARED)]],
    ]);
    const attrsA = JSON.parse(stored[0]?.attributes ?? "{}") as Record<string, unknown>;
    expect([0, 1, 2, 3].map((i) => attrsA[`retrieval.documents.${i}.document.content`])).toEqual(["ragmeter.chunk_ref:#0", "ragmeter.chunk_ref:#1", "short one", ""]);
    for (const r of stored) for (const t of [SHARED, ONLY_A, ONLY_B]) expect(r.attributes).not.toContain(t.slice(0, 40));
    // one row per distinct text: the shared one was written by the first trace only (this handle wrote it lately)
    expect(await rows(store, "SELECT chunk_hash, text, document_id FROM DB.chunks ORDER BY text")).toEqual(
      [SHARED, ONLY_A, ONLY_B].sort().map((text) => ({ chunk_hash: sha(text), text, document_id: "faq.md" })),
    );
    const back = await loadTraces(store, [A, B]);
    expect(back.get(A)?.spans).toEqual(a);
    expect(back.get(B)?.spans).toEqual(b);
    expect(JSON.stringify(back.get(A)?.spans.map((s) => s.attributes))).toBe(JSON.stringify(a.map((s) => s.attributes)));
  });

  it("scored from the store the interaction holds the texts, and rescoring the stored spans finds nothing changed", async () => {
    const store = await fresh();
    await writeRecords(store, [{ spans: ragTrace(A, [SHARED, ONLY_A]), logs: [] }], origin, Date.now() - 10_000);
    const scoring = { judge: createHeuristicJudge(), ks: [1, 5], quietMs: 0, liveSampleRate: 1, concurrency: 1, batchSize: 10 };
    const [scored] = await scoreSettledTraces(store, scoring, Date.now());
    expect(scored?.interaction.retrieved?.map((r) => r.text)).toEqual([SHARED, ONLY_A]);
    const report = await rescore(store, scoring, { service: "svc-refs", since: new Date(Date.now() - 60_000), dryRun: true });
    expect([report.traces, report.without_spans, report.changed]).toEqual([1, 0, []]);
  });

  it("forget: a chunk only the forgotten trace's spans refer to goes, a chunk another trace's spans refer to stays and reads back; forgetting that one too removes it", async () => {
    const store = await fresh();
    const a = ragTrace(A, [SHARED, ONLY_A]);
    const b = ragTrace(B, [ONLY_B, SHARED]);
    await writeRecords(
      store,
      [
        { spans: a, logs: [] },
        { spans: b, logs: [] },
      ],
      origin,
      Date.now(),
    );
    const texts = async () => (await rows<{ text: string }>(store, "SELECT text FROM DB.chunks FINAL ORDER BY text")).map((r) => r.text);
    expect(await texts()).toEqual([SHARED, ONLY_A, ONLY_B].sort());
    const counts = await forgetTraces(store, [A], { reason: "test", now: Date.now() });
    expect(counts.spans).toBe(3);
    expect(await texts()).toEqual([SHARED, ONLY_B].sort());
    const back = await loadTraces(store, [A, B]);
    expect(back.get(A)?.spans).toEqual([]);
    expect(back.get(B)?.spans).toEqual(b);
    await forgetTraces(store, [B], { reason: "test", now: Date.now() });
    expect(await texts()).toEqual([]);
  });

  it("forget keeps a chunk a kept trace's interaction refers to (its spans gone or not), and the kept trace still reads it", async () => {
    const store = await fresh();
    await writeRecords(store, [{ spans: ragTrace(A, [SHARED, ONLY_A]), logs: [] }], origin, Date.now());
    // B: only an interaction retrieving the shared chunk (its spans expired or never stored)
    await saveResults(store, {
      interactions: [
        {
          trace_id: B,
          created_at: Date.now(),
          run_id: "live",
          golden_id: "",
          source: "live",
          service_name: "svc-refs",
          deployment_environment: "",
          pipeline_version: "v1",
          question: "q",
          answer: "a",
          retrieved: [{ id: "kb/1", document_id: "faq.md", text: SHARED, score: 1, rank: 1 }],
          ...UNMEASURED_INTERACTION,
        },
      ],
      scores: [],
      claims: [],
    });
    await forgetTraces(store, [A], { reason: "test", now: Date.now() });
    expect(await rows(store, "SELECT text FROM DB.chunks FINAL")).toEqual([{ text: SHARED }]);
  });

  it("a chunk written lately is not written again within the window (last_seen to within it); another handle writes it again", async () => {
    const store = await fresh();
    const t0 = Date.UTC(2026, 11, 1, 12, 0, 0);
    const many = Array.from({ length: 20 }, (_, i) => `${i.toString(16).padStart(31, "0")}c`);
    for (const [i, id] of many.entries()) await writeRecords(store, [{ spans: ragTrace(id, [SHARED]), logs: [] }], origin, t0 + i * 1000);
    const raw = () => rows<{ n: string; last: string }>(store, "SELECT count() AS n, toString(max(last_seen)) AS last FROM DB.chunks");
    expect(await raw()).toEqual([{ n: "1", last: "2026-12-01 12:00:00.000" }]);
    // ten minutes later: written again, last_seen moves
    await writeRecords(store, [{ spans: ragTrace("d3".repeat(16), [SHARED]), logs: [] }], origin, t0 + 10 * 60_000);
    expect(await raw()).toEqual([{ n: "2", last: "2026-12-01 12:10:00.000" }]);
    // a handle that has not written it (another process) writes it once
    const other: Store = { ...store, recentChunks: new RecentChunks() };
    await writeRecords(other, [{ spans: ragTrace("d4".repeat(16), [SHARED]), logs: [] }], origin, t0 + 10 * 60_000 + 1);
    await writeRecords(other, [{ spans: ragTrace("d5".repeat(16), [SHARED]), logs: [] }], origin, t0 + 10 * 60_000 + 2);
    expect((await raw())[0]?.n).toBe("3");
    // first_seen carried over through every write
    expect(await rows(store, "SELECT toString(first_seen) AS f FROM DB.chunks FINAL")).toEqual([{ f: "2026-12-01 12:00:00.000" }]);
  });

  it("spans stored before with references by hash (not by index) read back whole", async () => {
    const store = await fresh();
    const a = ragTrace(A, [SHARED, ONLY_A, SHARED]);
    await writeRecords(store, [{ spans: a, logs: [] }], origin, Date.now());
    // The stored rows as a store written before held them: each #<index> reference spelled as its hash.
    const stored = await rows<Record<string, unknown> & { attributes: string; chunk_hashes: string[]; version: string }>(
      store,
      "SELECT * FROM DB.spans FINAL WHERE trace_id = {t:String}",
      { t: A },
    );
    const before = stored.map((r) => ({
      ...r,
      attributes: r.attributes.replace(/ragmeter\.chunk_ref:#(\d+)/gu, (_, i: string) => `ragmeter.chunk_ref:${r.chunk_hashes[Number(i)]}`),
      version: String(BigInt(r.version) + 1n),
    }));
    expect(before.filter((r) => r.attributes.includes(`ragmeter.chunk_ref:${sha(SHARED)}`))).toHaveLength(1);
    await store.client.insert({ table: `${store.database}.spans`, values: before, format: "JSONEachRow" });
    expect(JSON.stringify((await loadTraces(store, [A])).get(A)?.spans)).toBe(JSON.stringify(a));
  });

  it("real captured spans (AI SDK 6, tests/fixtures/conventions) and an OpenInference and a GenAI retrieval read back byte for byte", async () => {
    const store = await fresh();
    const fixtures = ["ai-sdk6-vercel-ai.json", "ai-sdk6-vercel-ai-rerank.json"].map(
      (f) => (JSON.parse(readFileSync(path.resolve(import.meta.dirname, "../fixtures/conventions", f), "utf8")) as { spans: StoredSpan[] }).spans,
    );
    const genai = span(B, `${B.slice(0, 14)}09`, "", "1700000000000000900", {
      "gen_ai.operation.name": "retrieval",
      "gen_ai.retrieval.documents": JSON.stringify([
        { id: "c1", content: ONLY_B, score: 0.9 },
        { id: "c2", content: SHARED },
        { id: "c3", content: ONLY_B },
      ]),
    });
    const traces = [...fixtures, ragTrace(A, [SHARED, ONLY_A, SHARED, ONLY_B]), [genai]];
    for (const spans of traces) await writeRecords(store, [{ spans, logs: [] }], origin, Date.now());
    const ids = [...new Set(traces.flat().map((s) => s.trace_id))];
    const back = await loadTraces(store, ids);
    for (const id of ids) {
      const sent = traces
        .flat()
        .filter((s) => s.trace_id === id)
        .sort((x, y) => (x.start_time_unix_nano < y.start_time_unix_nano ? -1 : x.start_time_unix_nano > y.start_time_unix_nano ? 1 : x.span_id < y.span_id ? -1 : 1));
      expect(JSON.stringify(back.get(id)?.spans), id).toBe(JSON.stringify(sent));
    }
    const stored = await rows<{ attributes: string }>(store, "SELECT attributes FROM DB.spans FINAL WHERE trace_id = {t:String} AND notEmpty(chunk_hashes)", { t: B });
    expect(JSON.parse(JSON.parse(stored[0]?.attributes ?? "{}")["gen_ai.retrieval.documents"]).map((d: { content: string }) => d.content)).toEqual([
      "ragmeter.chunk_ref:#0",
      "ragmeter.chunk_ref:#1",
      "ragmeter.chunk_ref:#0",
    ]);
  });
});
