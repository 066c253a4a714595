import MiniSearch from "minisearch";
import type { Chunk } from "./chunking.js";

/** A retrieved chunk with its BM25 score (MiniSearch's BM25+ ranking). */
export interface RetrievedChunk extends Chunk {
  readonly score: number;
}

/**
 * BM25 retriever over chunks, built with MiniSearch. Results are ordered by score, ties by chunk
 * order in the index, so the ranking is deterministic.
 */
export class Bm25Retriever {
  readonly #index: MiniSearch<Chunk & { order: number }>;
  readonly #chunks: Chunk[];

  constructor(chunks: readonly Chunk[]) {
    this.#chunks = [...chunks];
    this.#index = new MiniSearch<Chunk & { order: number }>({
      idField: "id",
      fields: ["text"],
      storeFields: ["id"],
    });
    this.#index.addAll(this.#chunks.map((c, order) => ({ ...c, order })));
  }

  /** Top `k` chunks for `query`, best first; an empty list when nothing matches. */
  search(query: string, k: number): RetrievedChunk[] {
    const order = new Map(this.#chunks.map((c, i) => [c.id, i] as const));
    const hits = this.#index.search(query, { combineWith: "OR", fuzzy: 0.2, prefix: (t) => t.length >= 5 });
    return hits
      .map((h) => ({ h, i: order.get(String(h.id)) ?? 0 }))
      .sort((a, b) => b.h.score - a.h.score || a.i - b.i)
      .slice(0, k)
      .map(({ h, i }) => ({ ...(this.#chunks[i] as Chunk), score: h.score }));
  }
}
