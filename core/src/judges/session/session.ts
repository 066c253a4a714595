import type { Status } from "../../domain/status.js";
import { JudgeConfigError } from "../errors.js";
import type { Judge, JudgeRequest, Judgment } from "../types.js";
import { type JudgeCache, judgeCacheKey } from "./cache.js";
import { costUsd, type Price, type PriceTable, priceOf } from "./cost.js";

/** Options of {@link createJudgeSession}. */
export interface JudgeSessionOptions {
  /** The judge cache, or null to turn it off (`--no-cache`, `--repeat N`). Used for LLM judges only. */
  readonly cache: JudgeCache | null;
  /** Price table (`RAGMETER_PRICES`), or null. */
  readonly prices: PriceTable | null;
  /** Stop judging once the estimated cost (USD) reaches this (`--max-cost`); null = no limit. */
  readonly maxCostUsd: number | null;
}

/** Judge usage of one run: what the summary shows and the run summary stores. */
export interface JudgeStats {
  /** HTTP requests sent to the judge endpoint, retries included. */
  readonly calls: number;
  /** Judgments served from the cache (no call). */
  readonly cached: number;
  /** Judgments skipped because `--max-cost` was reached (`not_sampled`). */
  readonly not_sampled: number;
  readonly input_tokens: number;
  readonly output_tokens: number;
  /** Estimated cost (USD) of this run's calls; 0 for heuristic judges; null when the model has no price. */
  readonly cost_usd: number | null;
  /** The price used, or null. */
  readonly price: Price | null;
  readonly max_cost_usd: number | null;
}

/** A judge wrapped with cache, budget and metering for one run. */
export interface JudgeSession {
  readonly judge: Judge;
  stats(): JudgeStats;
}

/** Statuses worth caching: deterministic outcomes of a successful call (never judge_error). */
const CACHEABLE: ReadonlySet<Status> = new Set<Status>(["ok", "no_claims", "context_too_long"]);

/**
 * Wraps `base` for one run (no shared state between runs):
 * 1. cache (metered judges only): key = (judge model, prompt version, judge name, inputs); a hit costs
 *    no call and is returned with `cached: true` and zero tokens; ok / no_claims / context_too_long
 *    results are written back;
 * 2. budget: once the estimated cost reaches `maxCostUsd`, further judgments are `not_sampled`
 *    (calls already in flight complete, so the final cost may pass the limit by those calls);
 * 3. metering: calls, tokens and cost of every judgment.
 * @throws JudgeConfigError when `maxCostUsd` is set for an LLM judge whose model has no price.
 */
export function createJudgeSession(base: Judge, options: JudgeSessionOptions): JudgeSession {
  const price = base.metered ? priceOf(options.prices, base.model) : null;
  if (base.metered && options.maxCostUsd !== null && price === null) {
    throw new JudgeConfigError(`--max-cost needs the price of judge model "${base.model}": add it to the RAGMETER_PRICES file`);
  }
  const cache = base.metered ? options.cache : null;
  const s = { calls: 0, cached: 0, not_sampled: 0, input_tokens: 0, output_tokens: 0 };
  const spent = () => (!base.metered ? 0 : price === null ? null : costUsd(price, s.input_tokens, s.output_tokens));

  const none = { input_tokens: 0, output_tokens: 0, latency_ms: 0, calls: 0 };
  async function judgeTask(task: string, request: JudgeRequest): Promise<Judgment> {
    const version = base.promptVersion[task] ?? "";
    const key = cache ? judgeCacheKey(base.model, version, task, request) : "";
    if (cache) {
      const hit = await cache.get(key);
      if (hit !== null) {
        s.cached++;
        return { ...(JSON.parse(hit) as Judgment), input_tokens: 0, output_tokens: 0, latency_ms: 0, calls: 0, cached: true };
      }
    }
    const cost = spent();
    if (options.maxCostUsd !== null && cost !== null && cost >= options.maxCostUsd) {
      s.not_sampled++;
      return { status: "not_sampled", value: null, reason: `--max-cost ${options.maxCostUsd} USD reached (estimated ${cost.toFixed(4)} USD)`, ...none };
    }
    const r = await base.judge(task, request);
    s.calls += r.calls ?? 0;
    s.input_tokens += r.input_tokens;
    s.output_tokens += r.output_tokens;
    if (cache && CACHEABLE.has(r.status)) {
      const { latency_ms: _l, calls: _c, cached: _h, ...rest } = r;
      await cache.put({ key, judge_model: base.model, judge_prompt_version: version, result: JSON.stringify(rest) });
    }
    return r;
  }

  const judge: Judge = { kind: base.kind, model: base.model, metered: base.metered, promptVersion: base.promptVersion, judge: judgeTask };
  return {
    judge,
    stats: () => ({ ...s, cost_usd: spent(), price, max_cost_usd: options.maxCostUsd }),
  };
}
