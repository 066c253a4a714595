import type { QuestionResult } from "../../core/src/domain/result.js";

/** A result's retrieval metrics in the shape tests compare: recall by k (null unless measured), recall's status, MRR's term, hit rank. */
export function retrievalOf(q: QuestionResult): {
  recall: Record<number, number> | null;
  recall_status: string | undefined;
  reciprocal_rank: number | null;
  hit_rank: number | null;
} {
  const ks = Object.keys(q.metrics)
    .filter((m) => m.startsWith("recall@"))
    .map((m) => Number(m.slice("recall@".length)));
  const first = ks.length > 0 ? q.metrics[`recall@${ks[0]}`] : undefined;
  const measured = first?.status === "ok";
  return {
    recall: measured ? Object.fromEntries(ks.map((k) => [k, q.metrics[`recall@${k}`]?.value ?? 0])) : null,
    recall_status: first?.status,
    reciprocal_rank: measured ? (q.metrics["mrr"]?.value ?? null) : null,
    hit_rank: measured ? (first?.hit_rank ?? null) : null,
  };
}
