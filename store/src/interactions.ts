import type { RetrievedItem } from "@ragmeter/core/domain/metrics/recall";
import { z } from "zod";
import { withChunkTexts } from "./chunks.js";
import type { Store } from "./client.js";

/** What `--from` selects: one run, or a filter over captured interactions. */
export type ReplaySource =
  | { readonly kind: "run"; readonly runId: string }
  | {
      readonly kind: "filter";
      readonly since: Date | null;
      readonly until: Date | null;
      readonly pipeline: string | null;
      readonly service: string | null;
      readonly source: string | null;
    };

/** A captured interaction to replay. */
export interface CapturedInteraction {
  readonly trace_id: string;
  readonly run_id: string;
  readonly golden_id: string;
  readonly source: string;
  readonly service_name: string;
  readonly pipeline_version: string;
  readonly question: string;
  readonly answer: string;
  readonly retrieved: RetrievedItem[];
}

const row = z.object({
  trace_id: z.string(),
  run_id: z.string(),
  golden_id: z.string(),
  source: z.string(),
  service_name: z.string(),
  pipeline_version: z.string(),
  question: z.string(),
  answer: z.string().nullable(),
  retrieved: z.array(z.object({ id: z.string(), document_id: z.string(), text: z.string(), score: z.number().nullable(), rank: z.union([z.number(), z.string()]) })),
  chunk_hashes: z.array(z.string()),
});

/**
 * Captured interactions matching `from` that can be replayed (status ok, question and answer
 * captured), one per distinct question (the latest), in time order; `sample` keeps a deterministic
 * subset (smallest hash of trace id).
 */
export async function selectInteractions(store: Store, from: ReplaySource, sample: number | null): Promise<CapturedInteraction[]> {
  const where: string[] = ["status = 'ok'", "question != ''", "answer IS NOT NULL"];
  const params: Record<string, unknown> = {};
  if (from.kind === "run") {
    where.push("run_id = {runId:String}");
    params["runId"] = from.runId;
  } else {
    if (from.since) {
      where.push("created_at >= {since:DateTime64(3, 'UTC')}");
      params["since"] = from.since.toISOString().replace("T", " ").replace("Z", "");
    }
    if (from.until) {
      where.push("created_at < {until:DateTime64(3, 'UTC')}");
      params["until"] = from.until.toISOString().replace("T", " ").replace("Z", "");
    }
    if (from.pipeline) {
      where.push("pipeline_version = {pipeline:String}");
      params["pipeline"] = from.pipeline;
    }
    if (from.service) {
      where.push("service_name = {service:String}");
      params["service"] = from.service;
    }
    if (from.source) {
      where.push("source = {source:String}");
      params["source"] = from.source;
    }
  }
  const rs = await store.client.query({
    // One interaction per distinct question (the latest), so a question asked in several runs is
    // replayed once.
    query: `SELECT trace_id, run_id, golden_id, source, service_name, pipeline_version, question, answer, retrieved, chunk_hashes FROM (
        SELECT trace_id, run_id, golden_id, source, service_name, pipeline_version, question, answer, retrieved, chunk_hashes, created_at
        FROM ${store.database}.interactions FINAL WHERE ${where.join(" AND ")}
        ORDER BY created_at DESC, trace_id LIMIT 1 BY question)
      ORDER BY ${sample !== null ? "cityHash64(trace_id)" : "created_at, trace_id"} ${sample !== null ? "LIMIT {sample:UInt32}" : ""}`,
    query_params: { ...params, ...(sample !== null ? { sample } : {}) },
    format: "JSONEachRow",
  });
  const rows = await withChunkTexts(
    store,
    (await rs.json<unknown>()).map((r) => row.parse(r)),
  );
  return rows.map(({ chunk_hashes: _, ...x }) => {
    const retrieved = [...x.retrieved].sort((a, b) => Number(a.rank) - Number(b.rank)).map((d) => ({ id: d.id, document_id: d.document_id, text: d.text, score: d.score }));
    return { ...x, answer: x.answer ?? "", retrieved };
  });
}
