import type { Store } from "./client.js";
import { type RunRow, runRowSchema } from "./rows.js";

/** A run as stored in `runs`. */
export interface RunRecord {
  readonly run_id: string;
  /** ISO-8601 UTC. */
  readonly started_at: string;
  readonly finished_at: string | null;
  /** `running`, `completed`, `failed`, or `aborted` (its process died while running; summary `{"aborted_reason": …}`). */
  readonly status: "running" | "completed" | "failed" | "aborted";
  readonly source: "golden" | "replay" | "live";
  readonly pipeline_version: string;
  readonly golden_set_hash: string;
  readonly golden_set_path: string;
  readonly judge_kind: string;
  readonly judge_model: string;
  /** Combined prompt version of the run's judges (grounding/relevance). */
  readonly judge_prompt_version: string;
  readonly ks: readonly number[];
  readonly target: string;
  /** JSON summary (metrics, counts, by_tag) once completed, `{}` before. */
  readonly summary: string;
}

function toRecord(r: RunRow): RunRecord {
  return { ...r, status: r.status as RunRecord["status"], source: r.source as RunRecord["source"] };
}

/** Writes (or replaces, by run_id) a run row. */
export async function saveRun(store: Store, run: RunRecord): Promise<void> {
  await store.client.insert({
    table: `${store.database}.runs`,
    values: [
      {
        ...run,
        started_at: Date.parse(run.started_at),
        finished_at: run.finished_at === null ? null : Date.parse(run.finished_at),
        version: store.nextVersion(),
      },
    ],
    format: "JSONEachRow",
  });
}

/** All runs, newest first. */
export async function listRuns(store: Store): Promise<RunRecord[]> {
  const rs = await store.client.query({ query: `SELECT * EXCEPT version FROM ${store.database}.runs FINAL ORDER BY started_at DESC, run_id DESC`, format: "JSONEachRow" });
  return (await rs.json<unknown>()).map((r) => toRecord(runRowSchema.parse(r)));
}

/** One run by id, or null. */
export async function getRun(store: Store, runId: string): Promise<RunRecord | null> {
  const rs = await store.client.query({
    query: `SELECT * EXCEPT version FROM ${store.database}.runs FINAL WHERE run_id = {runId:String}`,
    query_params: { runId },
    format: "JSONEachRow",
  });
  const rows = await rs.json<unknown>();
  return rows.length === 0 ? null : toRecord(runRowSchema.parse(rows[0]));
}

/**
 * The previous run of design §5: the latest completed run on the same golden-set hash with the
 * same judge kind, model and prompt version, started before `run` (excluding it).
 */
export async function previousRun(store: Store, run: RunRecord): Promise<RunRecord | null> {
  const rs = await store.client.query({
    query: `SELECT * EXCEPT version FROM ${store.database}.runs FINAL
      WHERE status = 'completed' AND run_id != {runId:String} AND golden_set_hash = {hash:String}
        AND judge_kind = {kind:String} AND judge_model = {model:String} AND judge_prompt_version = {pv:String}
        AND started_at <= {startedAt:DateTime64(3, 'UTC')}
      ORDER BY started_at DESC, run_id DESC LIMIT 1`,
    query_params: {
      runId: run.run_id,
      hash: run.golden_set_hash,
      kind: run.judge_kind,
      model: run.judge_model,
      pv: run.judge_prompt_version,
      startedAt: run.started_at.replace("T", " ").replace("Z", ""),
    },
    format: "JSONEachRow",
  });
  const rows = await rs.json<unknown>();
  return rows.length === 0 ? null : toRecord(runRowSchema.parse(rows[0]));
}
