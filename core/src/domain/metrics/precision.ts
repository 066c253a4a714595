import { type MechanicalMetric, measured } from "../metric.js";
import { type RetrievalExpectation, rankedHits } from "./recall.js";

/**
 * `precision@<k>`: the share of the first k ranks that hold an expected source — hits (as recall@k
 * counts them: the expected chunk, or a chunk of the expected document holding the expected
 * substring) among the first k distinct items, over k. Fewer than k items retrieved count the
 * missing ranks as misses (the retriever was asked for k).
 */
export function precisionMetric(k: number): MechanicalMetric {
  return {
    name: `precision@${k}`,
    kind: "retrieval",
    needs: ["answerable", "retrieval"],
    live: false,
    optional: false,
    headline: false,
    byTag: false,
    trend: false,
    color: "#17becf",
    evaluationLabel: (value) => (value > 0 ? "hit" : "miss"),
    compute(input) {
      const hits = rankedHits(input.contexts, input.expect as RetrievalExpectation).slice(0, input.k);
      return measured(hits.filter(Boolean).length / input.k);
    },
  };
}
