/** A judge cache: judgment JSON by key. Injected into the judge session, so tests may pass their own. */
export interface JudgeCache {
  /** The cached judgment JSON, or null on a miss. */
  get(key: string): Promise<string | null>;
  put(entry: { readonly key: string; readonly judge_model: string; readonly judge_prompt_version: string; readonly result: string }): Promise<void>;
}
