import { beforeAll, describe, expect, it } from "vitest";
import { chunkText, createProdCorpus, prodTrace } from "../../bench/lib/prod-traces.mjs";
import { createHeuristicJudge } from "../../core/src/judges/heuristic/heuristicJudge.js";
import { CHUNK_CACHE, type ChunkCacheBound, Tokens } from "../../core/src/judges/heuristic/tokens.js";
import type { GroundingInput, Judge } from "../../core/src/judges/types.js";
import { judgeGrounding, judgeRelevance } from "../../core/src/judges/types.js";

// The heuristic judge's chunk cache (issue 31): a chunk's tokens kept by its hash across traces,
// within a bound. Production-shaped traces (bench/lib/prod-traces.mjs, seed 31) are judged by one
// judge for all (the default cache, and a small one that evicts all along) and by a new judge per
// trace (nothing kept across traces): every claim's label, chunks and score, and every relevance,
// must be the same.

const M = 600;
let inputs: GroundingInput[];
let texts: string[];

beforeAll(() => {
  const corpus = createProdCorpus();
  inputs = Array.from({ length: M }, (_, i) => {
    const t = prodTrace(corpus, i);
    const chunks = t.rag
      ? t.retrieved.map((c) => {
          const chunk = corpus.chunks[c]!;
          return { id: chunk.id, text: chunkText(chunk) };
        })
      : [];
    return { question: t.question, answer: t.answer, chunks };
  });
  texts = inputs.flatMap((x) => x.chunks.map((c) => c.text));
}, 60_000);

/** What a judge says of a trace, without its timing. */
async function judged(judge: Judge, x: GroundingInput) {
  const g = await judgeGrounding(judge, x);
  const r = await judgeRelevance(judge, { question: x.question, answer: x.answer, answerable: true });
  return {
    grounding: { status: g.status, value: g.value, claims: g.claims.map((c) => ({ index: c.index, text: c.text, verdict: c.verdict, chunk_ids: c.chunk_ids })) },
    relevance: { status: r.status, value: r.value, reason: r.reason },
  };
}

describe("heuristic judge: the chunk cache changes no judgment", () => {
  it(`${M} production-shaped traces: one judge (default cache; a small cache that evicts) against a new judge per trace`, async () => {
    const shared = createHeuristicJudge();
    const small = createHeuristicJudge(undefined, { entries: 50, segments: 20_000 });
    let claims = 0;
    let reused = 0;
    const seen = new Set<string>();
    for (const x of inputs) {
      const fresh = await judged(createHeuristicJudge(), x);
      expect(await judged(shared, x)).toEqual(fresh);
      expect(await judged(small, x)).toEqual(fresh);
      claims += fresh.grounding.claims.length;
      for (const c of x.chunks) seen.has(c.text) ? reused++ : seen.add(c.text);
    }
    // The comparison covers what it should: many claims, and chunks retrieved again by later traces.
    expect(claims).toBeGreaterThan(M * 3);
    expect(reused).toBeGreaterThan(texts.length / 2);
  }, 120_000);
});

describe("heuristic judge: the chunk cache's bound", () => {
  const fill = (bound: ChunkCacheBound, check: (held: ChunkCacheBound) => void): Tokens => {
    const tokens = new Tokens(bound);
    for (const t of texts) {
      tokens.chunk(t);
      check(tokens.chunkCache());
    }
    return tokens;
  };

  it("holds at most its entries and its segments after every chunk, and fills up to them", () => {
    let most = { entries: 0, segments: 0 };
    const track = (bound: ChunkCacheBound) => (held: ChunkCacheBound) => {
      expect(held.entries).toBeLessThanOrEqual(bound.entries);
      expect(held.segments).toBeLessThanOrEqual(bound.segments);
      most = { entries: Math.max(most.entries, held.entries), segments: Math.max(most.segments, held.segments) };
    };
    const byEntries = { entries: 40, segments: Number.MAX_SAFE_INTEGER };
    fill(byEntries, track(byEntries));
    expect(most.entries).toBe(40);
    most = { entries: 0, segments: 0 };
    const bySegments = { entries: 1_000_000, segments: 10_000 };
    fill(bySegments, track(bySegments));
    expect(most.segments).toBeGreaterThan(10_000 - 1_000);
    expect(most.entries).toBeLessThan(new Set(texts).size);
  });

  it("the judge's default: 400,000 segments (about 10 MiB) and 20,000 chunks", () => {
    expect(CHUNK_CACHE).toEqual({ entries: 20_000, segments: 400_000 });
    fill(CHUNK_CACHE, (held) => expect(held.segments).toBeLessThanOrEqual(CHUNK_CACHE.segments));
  });

  it("keeps the most recently used: a chunk read again stays, the least recent goes; a chunk over the bound is not kept; entries 0 keeps none", () => {
    const [a, b, c] = [...new Set(texts)] as [string, string, string];
    const tokens = new Tokens({ entries: 2, segments: Number.MAX_SAFE_INTEGER });
    const ta = tokens.chunk(a);
    const tb = tokens.chunk(b);
    expect(tokens.chunk(a)).toBe(ta);
    tokens.chunk(c);
    expect(tokens.chunk(a)).toBe(ta);
    const tb2 = tokens.chunk(b);
    expect(tb2).not.toBe(tb);
    expect(tb2).toEqual(tb);
    const tiny = new Tokens({ entries: 10, segments: 10 });
    tiny.chunk(a);
    expect(tiny.chunkCache()).toEqual({ entries: 0, segments: 0 });
    const off = new Tokens({ entries: 0, segments: 0 });
    for (const t of texts.slice(0, 50)) off.chunk(t);
    expect(off.chunkCache()).toEqual({ entries: 0, segments: 0 });
  });
});
