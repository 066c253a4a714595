import { type MechanicalMetric, measured } from "../metric.js";
import { type RetrievalExpectation, rankedHits } from "./recall.js";

/**
 * `ndcg@<k>`: rank-aware retrieval quality with binary gains (design §5). DCG@k = Σ over the first k
 * distinct items of hit / log2(rank + 1); the ideal puts every hit of the retrieved list first
 * (min(k, hits) of them: the corpus's other relevant chunks are unknown to a golden set); 0 when
 * nothing retrieved is a hit. 1 when the hits lead the ranking.
 */
export function ndcgMetric(k: number): MechanicalMetric {
  return {
    name: `ndcg@${k}`,
    kind: "retrieval",
    needs: ["answerable", "retrieval"],
    live: false,
    optional: false,
    headline: false,
    byTag: false,
    trend: false,
    color: "#bcbd22",
    evaluationLabel: (value) => (value > 0 ? "hit" : "miss"),
    compute(input) {
      const hits = rankedHits(input.contexts, input.expect as RetrievalExpectation);
      const gain = (rank: number) => 1 / Math.log2(rank + 1);
      let dcg = 0;
      hits.slice(0, input.k).forEach((hit, i) => {
        if (hit) dcg += gain(i + 1);
      });
      const ideal = Math.min(input.k, hits.filter(Boolean).length);
      let idcg = 0;
      for (let r = 1; r <= ideal; r++) idcg += gain(r);
      return measured(idcg === 0 ? 0 : dcg / idcg);
    },
  };
}
