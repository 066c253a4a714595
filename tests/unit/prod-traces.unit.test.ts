import { beforeAll, describe, expect, it } from "vitest";
import { chunkText, createProdCorpus, PROD_DEFAULTS, prodTrace, prodTraceBytes } from "../../bench/lib/prod-traces.mjs";
import { extractInteraction } from "../../core/src/extract/interaction.js";
import { recordHeaders } from "../../otlp/src/index.js";
import { decodeMessage } from "../../stream/src/ingest.js";

// The benchmarks' production-shaped traces (issue 31): their shape, counted here, and the Zipf
// popularity of the retrieved chunks against the share computed from the Zipf law itself.

type Corpus = ReturnType<typeof createProdCorpus>;
type Trace = ReturnType<typeof prodTrace>;
let corpus: Corpus;
let traces: Trace[];
const M = 3000;

beforeAll(() => {
  corpus = createProdCorpus();
  traces = Array.from({ length: M }, (_, i) => prodTrace(corpus, i));
}, 60_000);

const share = (xs: readonly unknown[], p: (x: never) => boolean) => xs.filter(p as (x: unknown) => boolean).length / xs.length;

describe("production-shaped traces: the corpus", () => {
  it("20,000 chunks of 500–2,000 characters in 2,000 documents of ten, languages by document about 60/25/15 %", () => {
    expect(corpus.chunks).toHaveLength(20_000);
    const texts = corpus.chunks.map(chunkText);
    expect(Math.min(...texts.map((t) => t.length))).toBeGreaterThanOrEqual(500);
    expect(Math.max(...texts.map((t) => t.length))).toBeLessThanOrEqual(2000);
    const docs = new Map<string, Set<string>>();
    for (const c of corpus.chunks) docs.set(c.document_id, (docs.get(c.document_id) ?? new Set()).add(c.lang as string));
    expect(docs.size).toBe(2000);
    expect([...docs.values()].every((langs) => langs.size === 1)).toBe(true);
    expect(new Set(corpus.chunks.map((c) => c.id)).size).toBe(20_000);
    const byLang = (l: string) => [...docs.values()].filter((s) => s.has(l)).length / docs.size;
    expect(byLang("en")).toBeCloseTo(0.6, 1);
    expect(byLang("ru")).toBeCloseTo(0.25, 1);
    expect(byLang("zh")).toBeCloseTo(0.15, 1);
    expect(texts[corpus.chunks.findIndex((c) => c.lang === "ru")]).toMatch(/^[А-ЯЁ][а-яё]+ [^.]+\.( |$)/u);
    expect(texts[corpus.chunks.findIndex((c) => c.lang === "zh")]).toMatch(/^[^\sA-Za-z]+。/u);
  });

  it("is the same for the same seed, and another for another", () => {
    const again = createProdCorpus({ chunks: 2000, documents: 200 });
    const same = createProdCorpus({ chunks: 2000, documents: 200 });
    const other = createProdCorpus({ chunks: 2000, documents: 200, seed: 32 });
    expect(prodTraceBytes(same, 7).value.equals(prodTraceBytes(again, 7).value)).toBe(true);
    expect(chunkText(other.chunks[0]!)).not.toBe(chunkText(again.chunks[0]!));
    expect(prodTraceBytes(corpus, 11).value.equals(prodTraceBytes(corpus, 11).value)).toBe(true);
  });
});

describe("production-shaped traces: each trace", () => {
  it("retrieves 5–10 distinct chunks of one language; 10 % of traces retrieve nothing; both conventions about half", () => {
    const rag = traces.filter((t) => t.rag);
    expect(share(traces, (t: Trace) => !t.rag)).toBeCloseTo(PROD_DEFAULTS.nonRagShare, 1);
    expect(share(traces, (t: Trace) => t.convention === "openinference")).toBeGreaterThan(0.46);
    expect(share(traces, (t: Trace) => t.convention === "openinference")).toBeLessThan(0.54);
    for (const t of rag) {
      expect(t.retrieved.length).toBeGreaterThanOrEqual(5);
      expect(t.retrieved.length).toBeLessThanOrEqual(10);
      expect(new Set(t.retrieved).size).toBe(t.retrieved.length);
      expect(new Set(t.retrieved.map((c) => corpus.chunks[c]!.lang))).toEqual(new Set([t.lang]));
    }
    expect(traces.filter((t) => !t.rag).every((t) => t.retrieved.length === 0)).toBe(true);
    const mean = rag.reduce((a, t) => a + t.retrieved.length, 0) / rag.length;
    expect(mean).toBeGreaterThan(7.2);
    expect(mean).toBeLessThan(7.8);
  });

  it("answers in 300–1,000 characters of the retrieved chunks' sentences, about 15 % of them invented (in no chunk, with a number ≥ 7000)", () => {
    let made = 0;
    let all = 0;
    for (const t of traces) {
      expect(t.answer.length).toBeGreaterThanOrEqual(300);
      expect(t.answer.length).toBeLessThanOrEqual(1000);
      if (!t.rag) continue;
      const texts = t.retrieved.map((c) => chunkText(corpus.chunks[c]!));
      let invented = 0;
      for (const s of t.sentences) {
        const found = texts.some((x) => x.includes(s));
        if (!found) {
          invented++;
          expect(s).toMatch(/[7-9]\d{3}/u);
        }
      }
      expect(invented).toBe(t.invented);
      made += invented;
      all += t.sentences.length;
    }
    expect(made / all).toBeGreaterThan(PROD_DEFAULTS.inventedShare - 0.02);
    expect(made / all).toBeLessThan(PROD_DEFAULTS.inventedShare + 0.02);
  });

  it("the first retrieved chunk follows Zipf(1.1): its reuse share and its top chunk's share as computed from the law", () => {
    // p(rank r) = r^-1.1 / Σ; expected distinct first chunks after M draws = Σ_r 1 − (1 − p_r)^M.
    const n = PROD_DEFAULTS.chunks;
    const weights = Array.from({ length: n }, (_, r) => (r + 1) ** -1.1);
    const sum = weights.reduce((a, b) => a + b, 0);
    const expectedDistinct = weights.reduce((a, w) => a + 1 - (1 - w / sum) ** M, 0);
    // Non-RAG traces draw their first chunk the same way (for their language): counted too.
    const all = traces.map((t) => t.firstChunk);
    expect(traces.filter((t) => t.rag).every((t) => t.retrieved[0] === t.firstChunk)).toBe(true);
    const reuse = 1 - new Set(all).size / M;
    const expectedReuse = 1 - expectedDistinct / M;
    expect(Math.abs(reuse - expectedReuse)).toBeLessThan(0.02);
    const counts = new Map<number, number>();
    for (const c of all) counts.set(c, (counts.get(c) ?? 0) + 1);
    const top = Math.max(...counts.values());
    // Binomial(M, p1): within 4 standard deviations.
    const p1 = 1 / sum;
    expect(Math.abs(top - M * p1)).toBeLessThan(4 * Math.sqrt(M * p1 * (1 - p1)));
  });

  it("is read by the scorer as it was made: question, chunk and document ids in rank order, answer, model, tokens", () => {
    const headers = recordHeaders("traces");
    for (let i = 0; i < 200; i++) {
      const t = traces[i]!;
      const d = decodeMessage(headers, prodTraceBytes(corpus, i).value);
      expect(d.spans.length).toBe(t.rag ? 4 : 2);
      const x = extractInteraction(t.traceId, d.spans, d.logs);
      expect(x.question).toBe(t.question);
      expect(x.answer).toBe(t.answer);
      expect(x.generator_model).toBe("gpt-4o-mini");
      expect(x.service_name).toBe("prod-rag");
      expect(x.pipeline_version).toBe("prod-v1");
      expect(x.guesses).toEqual([]);
      expect(Number(x.output_tokens)).toBe(Math.ceil(t.answer.length / 4));
      expect((x.retrieved ?? []).map((r) => [r.id, r.document_id, r.text])).toEqual(
        t.retrieved.map((c) => [corpus.chunks[c]!.id, corpus.chunks[c]!.document_id, chunkText(corpus.chunks[c]!)]),
      );
    }
  });
});
