import { describe, expect, it } from "vitest";
import { formatLive } from "../../scorer/src/cli/liveCommand.js";
import { bootstrapMeanInterval } from "../../scorer/src/runs/bootstrap.js";
import { contentMissingWarning, type LiveInteractionRow, type LiveScoreRow, summariseLive } from "../../scorer/src/runs/live.js";

const HOUR = 3_600_000;
const now = Date.parse("2026-12-01T12:00:00Z");
const inter = (trace_id: string, service: string, version: string, question: string, documents: string[], minutesAgo: number, status = "ok"): LiveInteractionRow => ({
  trace_id,
  service_name: service,
  pipeline_version: version,
  status,
  question,
  documents,
  t: now - minutesAgo * 60_000,
});
const score = (trace_id: string, metric: string, value: number | null, status = "ok", tokens: [number, number] = [0, 0], model = "heuristic"): LiveScoreRow => ({
  trace_id,
  metric,
  value,
  status,
  judge_kind: model === "heuristic" ? "heuristic" : "llm",
  judge_model: model,
  judge_input_tokens: tokens[0],
  judge_output_tokens: tokens[1],
});

describe("summariseLive: live traffic per service and pipeline version", () => {
  const interactions = [
    inter("t1", "shop", "v1", "q1", ["a", "b"], 50),
    inter("t2", "shop", "v1", "q2", ["c"], 10),
    inter("t3", "shop", "v2", "q1", ["b", "d", "b"], 40),
    inter("t4", "shop", "v2", "q2", ["c"], 5),
    inter("t5", "dark", "v1", "", [], 20, "content_missing"),
  ];
  const scores = [
    score("t1", "grounding", 1, "ok", [100, 20], "m"),
    score("t1", "relevance", 4, "ok", [50, 5], "m"),
    score("t2", "grounding", 0.5, "ok", [200, 40], "m"),
    score("t2", "relevance", 2, "ok", [60, 6], "m"),
    score("t3", "grounding", 0.25),
    score("t3", "relevance", null, "judge_error"),
    score("t4", "grounding", null, "not_sampled"),
    score("t4", "relevance", 3),
    score("t5", "grounding", null, "content_missing"),
    score("t5", "relevance", null, "content_missing"),
  ];
  const s = summariseLive(interactions, scores, { windowMs: HOUR, now, seed: 7, resamples: 500, prices: { m: { input_per_1m: 1, output_per_1m: 10 } }, buckets: 4 });

  it("counts traces, statuses, means and the bootstrap interval of compare", () => {
    expect(s.groups.map((g) => [g.service, g.pipeline_version, g.traces_seen, g.traces_scored])).toEqual([
      ["dark", "v1", 1, 0],
      ["shop", "v1", 2, 2],
      ["shop", "v2", 2, 2],
    ]);
    const v1 = s.groups[1]!;
    expect(v1.metrics["grounding"]?.mean).toBe(0.75);
    expect(v1.metrics["relevance"]?.mean).toBe(3);
    const ci = bootstrapMeanInterval([1, 0.5], { seed: 7, resamples: 500 });
    expect(v1.metrics["grounding"]?.ci).toEqual([ci.lower, ci.upper]);
    const v2 = s.groups[2]!;
    expect(v2.metrics["grounding"]).toMatchObject({ n: 1, mean: 0.25, ci: null, statuses: { not_sampled: 1, ok: 1 } });
    expect(v2.metrics["relevance"]).toMatchObject({ n: 1, mean: 3, statuses: { judge_error: 1, ok: 1 } });
    expect(s.groups[0]!.statuses).toEqual({ content_missing: 1 });
    expect(s.groups[1]!.statuses).toEqual({ ok: 2 });
    expect(s.groups[2]!.statuses).toEqual({ not_sampled: 1, ok: 1 }); // t4: interaction ok, grounding not_sampled
    expect(s.groups[0]!.metrics["grounding"]?.mean).toBeNull();
  });

  it("the interval is the bootstrap of the group's ciSample most recent ok values (by time, then trace id), oldest first; the mean is over all", () => {
    const rows = [inter("a1", "s", "v", "q", [], 40), inter("a2", "s", "v", "q", [], 30), inter("a4", "s", "v", "q", [], 20), inter("a3", "s", "v", "q", [], 20)];
    const vals = [score("a1", "grounding", 0), score("a2", "grounding", 1), score("a4", "grounding", 0.5), score("a3", "grounding", 0.25)];
    const x = summariseLive(rows, vals, { windowMs: HOUR, now, seed: 3, resamples: 300, ciSample: 3 });
    const g = x.groups[0]!.metrics["grounding"]!;
    expect(g.n).toBe(4);
    expect(g.mean).toBe((0 + 1 + 0.5 + 0.25) / 4);
    expect(g.ci_n).toBe(3);
    // a1 is the oldest and left out; a3 and a4 share a time: a3 before a4.
    const ci = bootstrapMeanInterval([1, 0.25, 0.5], { seed: 3, resamples: 300 });
    expect(g.ci).toEqual([ci.lower, ci.upper]);
    expect(x.ci_sample).toBe(3);
    expect(summariseLive(rows.slice(0, 1), vals.slice(0, 1), { windowMs: HOUR, now, ciSample: 3 }).groups[0]!.metrics["grounding"]).toMatchObject({ n: 1, ci: null, ci_n: 1 });
  });

  it("judge calls, tokens and cost from the price table (1 $/M in, 10 $/M out)", () => {
    expect(s.groups[1]!.judge).toMatchObject({ calls: 4, input_tokens: 410, output_tokens: 71 });
    expect(s.groups[1]!.judge.cost_usd).toBeCloseTo((410 * 1 + 71 * 10) / 1e6, 15);
    expect(s.groups[2]!.judge).toEqual({ calls: 0, input_tokens: 0, output_tokens: 0, cost_usd: 0 });
    const unpriced = summariseLive(interactions, scores, { windowMs: HOUR, now, resamples: 100 });
    expect(unpriced.groups[1]!.judge.cost_usd).toBeNull();
    expect(unpriced.groups[1]!.judge.cost_reason).toContain("judge model m");
  });

  it("retrieval overlap of the versions on the same questions: Jaccard {a,b} vs {b,d} = 1/3, {c} vs {c} = 1", () => {
    expect(s.overlap).toEqual([{ service: "shop", version_a: "v1", version_b: "v2", questions: 2, mean_jaccard: (1 / 3 + 1) / 2 }]);
  });

  it("buckets the window: 4 × 15 min, traces and grounding mean per bucket", () => {
    const v1 = s.groups[1]!;
    // t1 50 min ago → bucket 0 (60–45 min ago); t2 10 min ago → bucket 3.
    expect(v1.buckets.map((b) => [b.start, b.traces, b.metrics["grounding"]])).toEqual([
      ["2026-12-01T11:00:00.000Z", 1, 1],
      ["2026-12-01T11:15:00.000Z", 0, null],
      ["2026-12-01T11:30:00.000Z", 0, null],
      ["2026-12-01T11:45:00.000Z", 1, 0.5],
    ]);
  });

  it("warns, naming OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT, only when most traces are content_missing", () => {
    expect(s.warnings).toEqual([]);
    expect(contentMissingWarning(4, 2, ["x"])).toBeNull();
    expect(contentMissingWarning(0, 0, [])).toBeNull();
    expect(contentMissingWarning(5, 3, ["dark"])).toContain("OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true");
    const dark = summariseLive(
      interactions.filter((i) => i.service_name === "dark"),
      [],
      { windowMs: HOUR, now, resamples: 100 },
    );
    expect(dark.warnings).toHaveLength(1);
    expect(dark.warnings[0]).toMatch(/^1 of 1 live traces are content_missing \(dark\)/u);
    // An interaction scored without content (status ok, scores content_missing) counts too.
    const scoredDark = summariseLive([inter("t6", "dark", "v1", "q", [], 1)], [score("t6", "grounding", null, "content_missing")], { windowMs: HOUR, now, resamples: 100 });
    expect(scoredDark.content_missing).toBe(1);
  });
});

describe("formatLive: a trace without a pipeline version", () => {
  it("is version (none) in its group and in the overlap lines (found as a new user: 'shop-rag:  vs v1')", () => {
    const rows = [inter("u1", "shop", "", "q1", ["a", "b"], 30), inter("u2", "shop", "v1", "q1", ["a"], 20)];
    const text = formatLive(summariseLive(rows, [score("u1", "grounding", 1), score("u2", "grounding", 1)], { windowMs: HOUR, now, seed: 1, resamples: 100 }), "store");
    expect(text).toContain("shop · pipeline (none)\n");
    // documents {a, b} and {a}: Jaccard 1/2 over the one question both answered
    expect(text).toContain("  shop: (none) vs v1  0.500 over 1 question(s)");
  });
});
