import type { JudgeCache } from "@ragmeter/core/domain/judgeCache";
import type { Store } from "./client.js";

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
        values: [
          { cache_key: e.key, judge_model: e.judge_model, judge_prompt_version: e.judge_prompt_version, result: e.result, created_at: Date.now(), version: store.nextVersion() },
        ],
        format: "JSONEachRow",
      });
    },
  };
}
