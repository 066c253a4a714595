import { claimTextSql } from "@ragmeter/core/domain/claimSpans";
import { z } from "zod";
import type { Store } from "./client.js";
import { utcTime } from "./rows.js";

/** Queries of the HTML report (every table read with FINAL). */

const num = z.union([z.number(), z.string()]).transform(Number);
const claimCountSchema = z.object({ run_id: z.string(), verdict: z.string(), n: num });
const badClaimSchema = z.object({
  time: utcTime,
  verdict: z.string(),
  claim: z.string(),
  question: z.string(),
  pipeline_version: z.string(),
  trace_id: z.string(),
  golden_id: z.string(),
});
const comparisonSchema = z.object({
  comparison_id: z.string(),
  run_a: z.string(),
  metric: z.string(),
  n: num,
  mean_a: z.number().nullable(),
  mean_b: z.number().nullable(),
  delta: z.number().nullable(),
  ci_lower: z.number().nullable(),
  ci_upper: z.number().nullable(),
  seed: num,
  resamples: num,
});
const lostSchema = z.object({ golden_id: z.string(), trace_id: z.string(), question: z.string() });

/** Claims per verdict of each run. */
export async function claimCountsByRun(store: Store, runIds: readonly string[]): Promise<z.infer<typeof claimCountSchema>[]> {
  const rs = await store.client.query({
    query: `SELECT run_id, verdict, count() AS n FROM ${store.database}.claims FINAL WHERE run_id IN {ids:Array(String)} GROUP BY run_id, verdict ORDER BY run_id, verdict`,
    query_params: { ids: runIds },
    format: "JSONEachRow",
  });
  return (await rs.json<unknown>()).map((x) => claimCountSchema.parse(x));
}

/** The rows (one per metric) of the latest stored comparison of run `a` → run `b`; empty when none. */
export async function latestComparison(store: Store, a: string, b: string): Promise<z.infer<typeof comparisonSchema>[]> {
  const db = store.database;
  const stored = await store.client.query({
    query: `SELECT comparison_id, run_a, metric, n, mean_a, mean_b, delta, ci_lower, ci_upper, seed, resamples FROM ${db}.comparisons FINAL
        WHERE run_b = {b:String} AND run_a = {a:String}
          AND comparison_id = (SELECT argMax(comparison_id, created_at) FROM ${db}.comparisons FINAL WHERE run_b = {b:String} AND run_a = {a:String})
        ORDER BY metric`,
    query_params: { a, b },
    format: "JSONEachRow",
  });
  return (await stored.json<unknown>()).map((x) => comparisonSchema.parse(x));
}

/** Golden id, a trace id and the question of the given golden ids in a run. */
export async function goldenQuestionsOfRun(store: Store, goldenSetHash: string, runId: string, goldenIds: readonly string[]): Promise<z.infer<typeof lostSchema>[]> {
  const db = store.database;
  const rs = await store.client.query({
    query: `SELECT s.golden_id AS golden_id, any(s.trace_id) AS trace_id, any(g.question) AS question
          FROM ${db}.scores AS s FINAL
          LEFT JOIN (SELECT golden_id, question FROM ${db}.golden_items FINAL WHERE golden_set_hash = {hash:String}) AS g ON g.golden_id = s.golden_id
          WHERE s.run_id = {run:String} AND s.golden_id IN {ids:Array(String)}
          GROUP BY s.golden_id ORDER BY s.golden_id`,
    query_params: { hash: goldenSetHash, run: runId, ids: goldenIds },
    format: "JSONEachRow",
  });
  return (await rs.json<unknown>()).map((x) => lostSchema.parse(x));
}

/**
 * The most recent UNSUPPORTED or CONTRADICTED claims of some runs and of live traffic (run `live`),
 * with their question: a report over one golden set lists no claim of another set's runs.
 */
export async function recentBadClaims(store: Store, runIds: readonly string[], limit: number): Promise<z.infer<typeof badClaimSchema>[]> {
  const db = store.database;
  const bad = await store.client.query({
    query: `SELECT toString(c.created_at) AS time, c.verdict AS verdict, ${claimTextSql("c", "i.answer")} AS claim, ifNull(i.question, '') AS question, c.pipeline_version AS pipeline_version, c.trace_id AS trace_id, c.golden_id AS golden_id
      FROM ${db}.claims AS c FINAL
      LEFT JOIN (SELECT trace_id, question, answer FROM ${db}.interactions FINAL) AS i ON i.trace_id = c.trace_id
      WHERE c.verdict IN ('UNSUPPORTED', 'CONTRADICTED') AND (c.run_id IN {runs:Array(String)} OR c.run_id = 'live')
      ORDER BY c.created_at DESC, c.trace_id, c.claim_index
      LIMIT {limit:UInt32}`,
    query_params: { limit, runs: runIds },
    format: "JSONEachRow",
  });
  return (await bad.json<unknown>()).map((x) => badClaimSchema.parse(x));
}

const retrievedSchema = z.object({
  golden_id: z.string(),
  retrieved: z.array(z.object({ id: z.string(), document_id: z.string() })),
});

/** The retrieved items (id, document id, in rank order) of some golden ids of a run. */
export async function retrievedOfRun(store: Store, runId: string, goldenIds: readonly string[]): Promise<Map<string, { id: string; document_id: string }[]>> {
  const rs = await store.client.query({
    query: `SELECT golden_id, any(arrayMap(r -> tuple(r.id, r.document_id), retrieved)) AS pairs
          FROM ${store.database}.interactions FINAL
          WHERE run_id = {run:String} AND golden_id IN {ids:Array(String)} GROUP BY golden_id`,
    query_params: { run: runId, ids: goldenIds },
    format: "JSONEachRow",
  });
  const rows = (await rs.json<{ golden_id: string; pairs: [string, string][] }>()).map((r) =>
    retrievedSchema.parse({ golden_id: r.golden_id, retrieved: r.pairs.map(([id, document_id]) => ({ id, document_id })) }),
  );
  return new Map(rows.map((r) => [r.golden_id, r.retrieved]));
}

const tagSchema = z.object({ golden_id: z.string(), tags: z.array(z.string()) });

/** Tags of every item of a golden set, by golden id. */
export async function goldenTags(store: Store, goldenSetHash: string): Promise<Map<string, string[]>> {
  const rs = await store.client.query({
    query: `SELECT golden_id, tags FROM ${store.database}.golden_items FINAL WHERE golden_set_hash = {hash:String}`,
    query_params: { hash: goldenSetHash },
    format: "JSONEachRow",
  });
  return new Map((await rs.json<unknown>()).map((x) => tagSchema.parse(x)).map((r) => [r.golden_id, r.tags]));
}
