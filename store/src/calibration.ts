import { claimTextSql } from "@ragmeter/core/domain/claimSpans";
import { RELEVANCE } from "@ragmeter/core/domain/metrics/judged";
import { withChunkTexts } from "./chunks.js";
import type { Store } from "./client.js";

/** A judged interaction of a run, as `ragmeter calibrate sample` reads it (status ok, an answer). */
export interface CalibrationInteractionRow {
  trace_id: string;
  golden_id: string;
  question: string;
  answer: string | null;
  retrieved: unknown;
}
/** A claim of repeat 0 with the judge's verdict. */
export interface CalibrationClaimRow {
  trace_id: string;
  claim_index: number | string;
  claim: string;
  verdict: string;
  chunk_ids: string[];
}
/** The relevance score of repeat 0. */
export interface CalibrationRelevanceRow {
  trace_id: string;
  value: number | null;
  status: string;
}

/** The rows of run `runId` a calibration review file is built from (claims ordered by trace and index). */
export async function readCalibrationRows(
  store: Store,
  runId: string,
): Promise<{ interactions: CalibrationInteractionRow[]; claims: CalibrationClaimRow[]; relevance: CalibrationRelevanceRow[] }> {
  const db = store.database;
  const q = async <T>(query: string): Promise<T[]> => (await store.client.query({ query, query_params: { runId, relevance: RELEVANCE.name }, format: "JSONEachRow" })).json<T>();
  const stored = await q<CalibrationInteractionRow & { chunk_hashes: string[]; retrieved: { text: string }[] }>(
    `SELECT trace_id, golden_id, question, answer, retrieved, chunk_hashes FROM ${db}.interactions FINAL WHERE run_id = {runId:String} AND status = 'ok' AND answer IS NOT NULL`,
  );
  const interactions = (await withChunkTexts(store, stored)).map(({ chunk_hashes: _, ...r }): CalibrationInteractionRow => r);
  const claims = await q<CalibrationClaimRow>(
    `SELECT c.trace_id AS trace_id, c.claim_index AS claim_index, ${claimTextSql("c", "i.answer")} AS claim, c.verdict AS verdict, c.chunk_ids AS chunk_ids
      FROM ${db}.claims AS c FINAL
      LEFT JOIN (SELECT trace_id, answer FROM ${db}.interactions FINAL WHERE trace_id IN (SELECT trace_id FROM ${db}.claims WHERE run_id = {runId:String})) AS i ON i.trace_id = c.trace_id
      WHERE c.run_id = {runId:String} AND c.repeat_index = 0 ORDER BY trace_id, claim_index`,
  );
  const relevance = await q<CalibrationRelevanceRow>(
    `SELECT trace_id, value, status FROM ${db}.scores FINAL WHERE run_id = {runId:String} AND metric = {relevance:String} AND repeat_index = 0`,
  );
  return { interactions, claims, relevance };
}
