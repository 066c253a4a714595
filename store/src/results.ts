import { chunkHash } from "@ragmeter/core/domain/chunkHash";
import { answerDigest, claimSpan } from "@ragmeter/core/domain/claimSpans";
import type { ResultBatch } from "@ragmeter/core/domain/rows";
import { saveChunks } from "./chunks.js";
import type { Store } from "./client.js";
import { markLiveMinutes } from "./liveMinutes.js";
import { LIVE_SCORE_COLUMNS, LIVE_TRACE_COLUMNS, liveRows } from "./liveTraces.js";
import { type ScoreRow, scoreRowSchema } from "./rows.js";

export type { ClaimInsert, InteractionInsert, ResultBatch, ScoreInsert } from "@ragmeter/core/domain/rows";

const INTERACTION_COLUMNS = [
  "trace_id",
  "run_id",
  "golden_id",
  "source",
  "service_name",
  "deployment_environment",
  "pipeline_version",
  "question",
  "answer",
  "retrieved",
  "generator_model",
  "input_tokens",
  "output_tokens",
  "abstained",
  "status",
  "reason",
  "latency_ms",
  "judge_prompt_version",
  "created_at",
  "version",
  "chunk_hashes",
] as const;
const SCORE_COLUMNS = [
  "run_id",
  "trace_id",
  "metric",
  "judge_prompt_version",
  "repeat_index",
  "golden_id",
  "value",
  "status",
  "reason",
  "judge_kind",
  "judge_model",
  "pipeline_version",
  "source",
  "created_at",
  "judge_input_tokens",
  "judge_output_tokens",
  "latency_ms",
  "version",
] as const;

const CLAIM_COLUMNS = [
  "run_id",
  "trace_id",
  "golden_id",
  "judge_prompt_version",
  "repeat_index",
  "claim_index",
  "claim",
  "verdict",
  "chunk_ids",
  "judge_model",
  "pipeline_version",
  "created_at",
  "version",
  "claim_start",
  "claim_length",
  "answer_digest",
] as const;

/**
 * The answer each trace's interaction of `interactions` stores, with its digest, by trace id; a trace
 * given two different answers in one batch has none here (which row the store keeps is not known).
 */
function batchAnswers(interactions: ResultBatch["interactions"]): Map<string, { readonly answer: string; readonly digest: number } | null> {
  const seen = new Map<string, string | null>();
  for (const i of interactions) {
    const a = seen.get(i.trace_id);
    seen.set(i.trace_id, a === undefined || a === i.answer ? i.answer : null);
  }
  return new Map([...seen].map(([trace, answer]) => [trace, answer === null ? null : { answer, digest: answerDigest(answer) }]));
}

/**
 * Writes the batch's retrieved texts to `chunks` (design §6), before the interactions that refer to
 * them; returns each interaction's hashes of its retrieved texts (`chunk_hashes`), computed once.
 */
async function saveBatchChunks(store: Store, interactions: ResultBatch["interactions"], version: number, now: number): Promise<string[][]> {
  const hashes = interactions.map((i) => i.retrieved.map((r) => chunkHash(r.text)));
  if (interactions.length > 0) {
    const items = interactions.flatMap((i, n) => i.retrieved.map((r, k) => ({ text: r.text, document_id: r.document_id, chunk_hash: hashes[n]?.[k] as string })));
    await saveChunks(store, items, version, now);
  }
  return hashes;
}

/**
 * Writes the chunks, scores and claims, then the interactions (the mark of a scored trace), then the
 * live view's rows of the live interactions (`liveRows`: `live_scores`, then `live_traces`). Keys are those of design §6, so
 * writing the same batch twice leaves one row per key after FINAL.
 */
export async function saveResults(store: Store, batch: ResultBatch): Promise<void> {
  const version = store.nextVersion();
  const now = Date.now();
  const db = store.database;
  const hashes = await saveBatchChunks(store, batch.interactions, version, now);
  if (batch.scores.length > 0) {
    // The largest insert (one row per metric per question): compact rows parse about a third faster.
    await store.client.insert({
      table: `${db}.scores`,
      columns: [...SCORE_COLUMNS],
      values: batch.scores.map((s) => [
        s.run_id,
        s.trace_id,
        s.metric,
        s.judge_prompt_version,
        s.repeat_index,
        s.golden_id,
        s.value,
        s.status,
        s.reason,
        s.judge_kind,
        s.judge_model,
        s.pipeline_version,
        s.source,
        now,
        s.judge_input_tokens,
        s.judge_output_tokens,
        s.latency_ms,
        version,
      ]),
      format: "JSONCompactEachRow",
    });
  }
  if (batch.claims.length > 0) {
    // A claim cut from its answer is stored as offsets into the answer its interaction stores.
    const answers = batchAnswers(batch.interactions);
    await store.client.insert({
      table: `${db}.claims`,
      columns: [...CLAIM_COLUMNS],
      values: batch.claims.map((c) => {
        const a = answers.get(c.trace_id) ?? null;
        const span = a === null ? claimSpan(c.claim, null) : claimSpan(c.claim, a.answer, a.digest);
        return [
          c.run_id,
          c.trace_id,
          c.golden_id,
          c.judge_prompt_version,
          c.repeat_index,
          c.claim_index,
          span.claim,
          c.verdict,
          c.chunk_ids,
          c.judge_model,
          c.pipeline_version,
          now,
          version,
          span.claim_start,
          span.claim_length,
          span.answer_digest,
        ];
      }),
      format: "JSONCompactEachRow",
    });
  }
  // The interactions after their scores and claims: an interaction is what marks a trace scored (the
  // full scan's settledTraces), so a process killed between these writes leaves a trace the next
  // scan scores again, never one marked scored without its scores (issue 31, bench:soak's SIGKILLs).
  if (batch.interactions.length > 0) {
    await store.client.insert({
      table: `${db}.interactions`,
      // Compact rows in the table's column order: about a third faster to encode and parse.
      columns: [...INTERACTION_COLUMNS],
      values: batch.interactions.map((i, n) => [
        i.trace_id,
        i.run_id,
        i.golden_id,
        i.source,
        i.service_name,
        i.deployment_environment,
        i.pipeline_version,
        i.question,
        i.answer,
        // The text lives in `chunks`; a blank text has no hash and stays '' here.
        i.retrieved.map((r) => ({ id: r.id, document_id: r.document_id, text: "", score: r.score, rank: r.rank })),
        i.generator_model,
        i.input_tokens,
        i.output_tokens,
        i.abstained === null ? null : i.abstained ? 1 : 0,
        i.status,
        i.reason,
        i.latency_ms,
        i.judge_prompt_version ?? "",
        i.created_at ?? now,
        version,
        hashes[n],
      ]),
      format: "JSONCompactEachRow",
    });
  }
  // Last: the live view's rows (design §3) exist only once their interaction and scores do.
  const live = liveRows(batch, version, now);
  // Their minutes marked first (their aggregates, if computed, no longer cover them: ./liveMinutes.ts).
  await markLiveMinutes(
    store,
    live.traces.map((r) => r[0] as number),
    version,
  );
  if (live.scores.length > 0) {
    await store.client.insert({ table: `${db}.live_scores`, columns: [...LIVE_SCORE_COLUMNS], values: live.scores, format: "JSONCompactEachRow" });
  }
  if (live.traces.length > 0) {
    await store.client.insert({ table: `${db}.live_traces`, columns: [...LIVE_TRACE_COLUMNS], values: live.traces, format: "JSONCompactEachRow" });
  }
}

/**
 * Per-question scores of a run: one row per (golden id, metric), repeats averaged (design §5:
 * "repeats are averaged per question before pairing"); `value` is null unless every repeat is `ok`.
 */
export async function runScores(store: Store, runId: string): Promise<ScoreRow[]> {
  const rs = await store.client.query({
    query: `SELECT golden_id, any(trace_id) AS trace_id, metric,
        if(countIf(s.status != 'ok') = 0, avg(s.value), NULL) AS agg_value,
        if(countIf(s.status != 'ok') = 0, 'ok', anyIf(s.status, s.status != 'ok')) AS agg_status,
        count() AS repeats
      FROM ${store.database}.scores AS s FINAL
      WHERE run_id = {runId:String}
      GROUP BY golden_id, metric
      ORDER BY golden_id, metric`,
    query_params: { runId },
    format: "JSONEachRow",
  });
  return (await rs.json<Record<string, unknown>>()).map((r) => scoreRowSchema.parse({ ...r, value: r["agg_value"], status: r["agg_status"] }));
}

/** The question asked under each golden id of a run (from its interactions). */
export async function runQuestions(store: Store, runId: string): Promise<Map<string, string>> {
  const rs = await store.client.query({
    query: `SELECT golden_id, any(question) AS question FROM ${store.database}.interactions FINAL
      WHERE run_id = {runId:String} GROUP BY golden_id`,
    query_params: { runId },
    format: "JSONEachRow",
  });
  return new Map((await rs.json<{ golden_id: string; question: string }>()).map((r) => [r.golden_id, r.question]));
}
