import { z } from "zod";
import { withChunkTexts } from "./chunks.js";
import type { Store } from "./client.js";

/** A question of captured live traffic with what the service retrieved for it. */
export interface TrafficQuestion {
  readonly trace_id: string;
  readonly service_name: string;
  /** When it was asked, ms since the epoch. */
  readonly at: number;
  readonly question: string;
  readonly answer: string | null;
  /** Retrieved items in rank order (text restored from `chunks`). */
  readonly retrieved: readonly { readonly id: string; readonly document_id: string; readonly text: string; readonly score: number | null }[];
}

const row = z.object({
  trace_id: z.string(),
  service_name: z.string(),
  at: z.union([z.number(), z.string()]).transform(Number),
  question: z.string(),
  answer: z.string().nullable(),
  retrieved: z.array(z.object({ id: z.string(), document_id: z.string(), text: z.string(), score: z.number().nullable(), rank: z.union([z.number(), z.string()]) })),
  chunk_hashes: z.array(z.string()),
});

/** Most distinct questions read (the newest); a draft samples a few dozen of them. */
const TRAFFIC_READ_LIMIT = 20_000;

/**
 * Questions of captured live traffic (`source = 'live'`) with a question and at least one retrieved
 * item (a forgotten trace has neither), one per distinct question text (its latest trace), the
 * newest {@link TRAFFIC_READ_LIMIT}, in time order.
 */
export async function selectTrafficQuestions(store: Store, filter: { readonly since: Date | null; readonly service: string | null }): Promise<TrafficQuestion[]> {
  const where = ["source = 'live'", "question != ''", "length(retrieved) > 0"];
  const params: Record<string, unknown> = { limit: TRAFFIC_READ_LIMIT };
  if (filter.since) {
    where.push("created_at >= {since:DateTime64(3, 'UTC')}");
    params["since"] = filter.since.toISOString().replace("T", " ").replace("Z", "");
  }
  if (filter.service) {
    where.push("service_name = {service:String}");
    params["service"] = filter.service;
  }
  const rs = await store.client.query({
    query: `SELECT trace_id, service_name, at, question, answer, retrieved, chunk_hashes FROM (
        SELECT trace_id, service_name, toUnixTimestamp64Milli(created_at) AS at, question, answer, retrieved, chunk_hashes, created_at
        FROM ${store.database}.interactions FINAL WHERE ${where.join(" AND ")}
        ORDER BY created_at DESC, trace_id LIMIT 1 BY question LIMIT {limit:UInt32})
      ORDER BY at, trace_id`,
    query_params: params,
    format: "JSONEachRow",
  });
  const rows = await withChunkTexts(
    store,
    (await rs.json<unknown>()).map((r) => row.parse(r)),
  );
  return rows.map(({ chunk_hashes: _, ...x }) => ({
    ...x,
    retrieved: [...x.retrieved].sort((a, b) => Number(a.rank) - Number(b.rank)).map((d) => ({ id: d.id, document_id: d.document_id, text: d.text, score: d.score })),
  }));
}
