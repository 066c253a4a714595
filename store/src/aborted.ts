import type { ClickHouseClient } from "@clickhouse/client";
import { z } from "zod";

const idSchema = z.object({ run_id: z.string() });

/**
 * Marks every `running` run `aborted` (finished at `now`, summary `{"aborted_reason": reason}`,
 * the other columns kept) in one INSERT … SELECT at row version `version`. Called when the embedded
 * store is opened: its single owner cannot have a run in flight yet, so such a run's process died.
 * @returns the run ids marked, sorted
 */
export async function abortRunningRuns(client: ClickHouseClient, database: string, reason: string, now: number, version: number): Promise<string[]> {
  const rs = await client.query({ query: `SELECT run_id FROM ${database}.runs FINAL WHERE status = 'running' ORDER BY run_id`, format: "JSONEachRow" });
  const ids = (await rs.json<unknown>()).map((r) => idSchema.parse(r).run_id);
  if (ids.length === 0) return [];
  await client.command({
    query: `INSERT INTO ${database}.runs (run_id, started_at, finished_at, status, source, pipeline_version, golden_set_hash, golden_set_path, judge_kind, judge_model, judge_prompt_version, ks, target, summary, version)
      SELECT run_id, started_at, fromUnixTimestamp64Milli({now:Int64}, 'UTC'), 'aborted', source, pipeline_version, golden_set_hash, golden_set_path, judge_kind, judge_model, judge_prompt_version, ks, target, {summary:String}, {version:UInt64}
      FROM ${database}.runs FINAL WHERE run_id IN {ids:Array(String)}`,
    query_params: { now, summary: JSON.stringify({ aborted_reason: reason }), version, ids },
  });
  return ids;
}
