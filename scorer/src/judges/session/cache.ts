import { createHash } from "node:crypto";
import type { Store } from "../../store/client.js";

/** A judge cache: judgment JSON by key. Injected into the judge session, so tests may pass their own. */
export interface JudgeCache {
  /** The cached judgment JSON, or null on a miss. */
  get(key: string): Promise<string | null>;
  put(entry: { readonly key: string; readonly judge_model: string; readonly judge_prompt_version: string; readonly result: string }): Promise<void>;
}

/**
 * The cache key of design §5: SHA-256 (hex) of the canonical JSON of (judge model, prompt version,
 * judge name, inputs). Any change of model, prompt text or input gives another key.
 */
export function judgeCacheKey(model: string, promptVersion: string, judgeName: string, input: unknown): string {
  return createHash("sha256").update(JSON.stringify([model, promptVersion, judgeName, input])).digest("hex");
}

/** The `judge_cache` table (key `cache_key`, ReplacingMergeTree: a rewrite of the same key keeps one row). */
export function storeJudgeCache(store: Store): JudgeCache {
  const table = `${store.database}.judge_cache`;
  return {
    async get(key) {
      const rs = await store.client.query({
        query: `SELECT result FROM ${table} FINAL WHERE cache_key = {key:String} LIMIT 1`,
        query_params: { key },
        format: "JSONEachRow",
      });
      const rows = await rs.json<{ result: string }>();
      return rows[0]?.result ?? null;
    },
    async put(e) {
      await store.client.insert({
        table,
        values: [{ cache_key: e.key, judge_model: e.judge_model, judge_prompt_version: e.judge_prompt_version, result: e.result, created_at: Date.now(), version: store.nextVersion() }],
        format: "JSONEachRow",
      });
    },
  };
}
