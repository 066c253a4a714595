import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it, vi } from "vitest";
import { combineRepeats, lengthBias, repeatVariance } from "../../core/src/judges/analysis.js";
import { retryAfterMs, toJudgeCallError } from "../../core/src/judges/llm/callError.js";
import { createRateLimiter } from "../../core/src/judges/llm/limiter.js";
import { countTokens, splitByTokens } from "../../core/src/judges/llm/tokens.js";
import { judgeCacheKey } from "../../core/src/judges/session/cache.js";
import { costUsd, priceOf } from "../../core/src/judges/session/cost.js";

// The errors core's own `openai` (7.x, core/package.json) throws: the root's copy (6.x, held
// for @opentelemetry/instrumentation-openai) has other classes, which instanceof rightly tells apart.
const coreOpenai = createRequire(new URL("../../core/package.json", import.meta.url)).resolve("openai");
const { APIConnectionTimeoutError, APIError } = (await import(pathToFileURL(join(dirname(coreOpenai), "index.mjs")).href)) as typeof import("openai");

const ok = (value: number) => ({ status: "ok", value });

describe("judge variance over repeats", () => {
  it("mean, pooled within-question sd and share flipped, by hand", () => {
    // A: 4,4,4 (var 0) · B: 2,3,4 (sample var 1) · C: 1, judge_error, 1 (status flips; one ok pair: var 0)
    // mean of ok values = (12 + 9 + 2) / 8 = 2.875; pooled sd = sqrt((0 + 1 + 0) / 3) = sqrt(1/3); flipped B, C → 2/3
    const v = repeatVariance(
      "relevance",
      new Map([
        ["A", [ok(4), ok(4), ok(4)]],
        ["B", [ok(2), ok(3), ok(4)]],
        ["C", [ok(1), { status: "judge_error", value: null }, ok(1)]],
        ["D", [{ status: "target_error", value: null }]],
      ]),
    );
    expect(v.mean).toBe(2.875);
    expect(v.sd).toBeCloseTo(Math.sqrt(1 / 3), 12);
    expect(v.flipped).toBeCloseTo(2 / 3, 12);
    expect(v.flipped_ids).toEqual(["B", "C"]);
    expect(v.n).toBe(3);
    expect(v.repeats).toBe(3);
  });
  it("combineRepeats: mean when all ok, else the first non-ok status with null", () => {
    const c = (v: number) => ({ status: "ok" as const, value: v, input_tokens: 10, output_tokens: 2, latency_ms: 5, calls: 1 });
    expect(combineRepeats([c(2), c(3), c(4)])).toMatchObject({ status: "ok", value: 3, input_tokens: 30, output_tokens: 6, calls: 3 });
    expect(combineRepeats([c(2), { ...c(0), status: "judge_error" as const, value: null }])).toMatchObject({ status: "judge_error", value: null });
  });
});

describe("length bias", () => {
  it("Spearman ρ between answer length and score, by hand", () => {
    // lengths 1, 2, 3, 4 → ranks 0..3; scores 1, 2, 2, 4 → midranks 0, 1.5, 1.5, 3
    // Pearson of the ranks: x̄ = 1.5, ȳ = 1.5; Σdxdy = 2.25 + 0 + 0 + 2.25 = 4.5; Σdx² = 5; Σdy² = 4.5
    // ρ = 4.5 / sqrt(5 · 4.5) = sqrt(4.5/5) = sqrt(0.9)
    const pts = ["a", "bb", "ccc", "dddd"].map((answer, i) => ({ answer, score: ok([1, 2, 2, 4][i] as number) }));
    const b = lengthBias("relevance", [...pts, { answer: "eeeee", score: { status: "judge_error", value: null } }]);
    expect(b.n).toBe(4);
    expect(b.spearman).toBeCloseTo(Math.sqrt(0.9), 12);
    expect(
      lengthBias(
        "grounding",
        pts.map((p) => ({ ...p, score: ok(1) })),
      ).spearman,
    ).toBeNull();
  });
});

describe("call errors, rate limit, prices, cache key, tokens", () => {
  const headers = (h: Record<string, string>) => ({ get: (n: string) => h[n] ?? null });
  it("Retry-After in seconds, as an HTTP date, and retry-after-ms", () => {
    expect(retryAfterMs(headers({ "retry-after": "2" }))).toBe(2000);
    expect(retryAfterMs(headers({ "retry-after-ms": "150" }))).toBe(150);
    expect(retryAfterMs(headers({ "retry-after": new Date(10_000 + 3000).toUTCString() }), 10_000)).toBe(3000);
    expect(retryAfterMs(headers({}))).toBeNull();
  });
  it("classifies the client's errors (after its own retries): 408/409/429/5xx and timeouts retriable, other 4xx not", () => {
    const err = (status: number, h: Record<string, string> = {}) => toJudgeCallError(APIError.generate(status, { message: "m" }, "m", new Headers(h)));
    expect(err(503)).toMatchObject({ status: 503, retriable: true, retryAfterMs: null });
    expect(err(429, { "retry-after": "2" })).toMatchObject({ status: 429, retriable: true, retryAfterMs: 2000 });
    expect(err(409).retriable).toBe(true);
    expect(err(401)).toMatchObject({ status: 401, retriable: false });
    expect(toJudgeCallError(new APIConnectionTimeoutError()).retriable).toBe(true);
  });
  it("requests-per-minute limit over a sliding window (fake clock)", async () => {
    vi.useFakeTimers({ now: 0 });
    try {
      const lim = createRateLimiter({ concurrency: 4, rpm: 2 });
      const started: number[] = [];
      const all = Promise.all([1, 2, 3].map(() => lim.schedule(async () => void started.push(Date.now()))));
      await vi.advanceTimersByTimeAsync(60_000);
      await all;
      expect(started).toEqual([0, 0, 60_000]);
    } finally {
      vi.useRealTimers();
    }
  });
  it("prices: cost of 400 input + 80 output tokens at $2 / $10 per 1M = $0.0016", () => {
    const prices = { "judge-1": { input_per_1m: 2, output_per_1m: 10 } };
    expect(costUsd(priceOf(prices, "judge-1")!, 400, 80)).toBeCloseTo(0.0016, 15);
    expect(priceOf(prices, "other")).toBeNull();
    expect(priceOf(prices, "toString")).toBeNull();
  });
  it("cache key changes with model, prompt version, judge and input", () => {
    const k = judgeCacheKey("m", "v1", "grounding", { a: 1 });
    expect(k).toMatch(/^[0-9a-f]{64}$/u);
    for (const other of [
      judgeCacheKey("m2", "v1", "grounding", { a: 1 }),
      judgeCacheKey("m", "v2", "grounding", { a: 1 }),
      judgeCacheKey("m", "v1", "relevance", { a: 1 }),
      judgeCacheKey("m", "v1", "grounding", { a: 2 }),
    ])
      expect(other).not.toBe(k);
  });
  it("token counting and splitting (o200k_base), Cyrillic and CJK included", () => {
    const text = "Порт 5432 открыт. 端口是5432。 Port 5432 is open. ".repeat(20);
    const n = countTokens(text);
    const parts = splitByTokens(text, 50);
    expect(parts.length).toBe(Math.ceil(n / 50));
    for (const p of parts.slice(0, -1)) expect(countTokens(p)).toBeLessThanOrEqual(51);
  });
});
