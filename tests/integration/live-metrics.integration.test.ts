import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { InteractionInsert, ScoreInsert } from "../../core/src/domain/rows.js";
import { renderLiveSection } from "../../scorer/src/cli/format/liveHtml.js";
import type { LiveSummary } from "../../scorer/src/runs/live.js";
import { openStore, type Store } from "../../store/src/client.js";
import { saveIngestionStats } from "../../store/src/ingestionStats.js";
import { saveResults } from "../../store/src/results.js";
import { cli } from "../helpers/cli.js";

// The live view reads its metrics by name from the metric table: context_relevance (a live metric of
// the table with no live-specific code) shows in `ragmeter live`, its --json and the page like
// grounding; and the stream's judge failures by kind and budget skips of the window's minutes show.

const MIN = 60_000;
let home: string;
const now = Date.now();

/** A live trace of `shop` v1 `minutesAgo` ago with the given scores (metric → [status, value, input tokens]). */
function trace(id: string, minutesAgo: number, scores: Record<string, [string, number | null, number]>): { i: InteractionInsert; s: ScoreInsert[] } {
  const i: InteractionInsert = {
    trace_id: id,
    run_id: "live",
    golden_id: "",
    source: "live",
    service_name: "shop",
    deployment_environment: "",
    pipeline_version: "v1",
    question: `question ${id}`,
    answer: "answer",
    retrieved: [{ id: "c1", document_id: "d1", text: "t", score: null, rank: 1 }],
    generator_model: null,
    input_tokens: null,
    output_tokens: null,
    abstained: false,
    status: "ok",
    reason: "",
    latency_ms: null,
    created_at: now - minutesAgo * MIN,
  };
  const s = Object.entries(scores).map(
    ([metric, [status, value, tokens]]): ScoreInsert => ({
      run_id: "live",
      trace_id: id,
      golden_id: "",
      metric,
      value,
      status,
      reason: "",
      judge_kind: "llm",
      judge_model: "judge-a",
      judge_prompt_version: "p1",
      repeat_index: 0,
      pipeline_version: "v1",
      source: "live",
      judge_input_tokens: tokens,
      judge_output_tokens: tokens === 0 ? 0 : 10,
      latency_ms: 0,
    }),
  );
  return { i, s };
}

beforeAll(async () => {
  home = await mkdtemp(path.join(tmpdir(), "ragmeter-live-metrics-"));
  const store: Store = await openStore({ kind: "embedded", home, database: "ragmeter" });
  try {
    const traces = [
      trace("t1", 50, { grounding: ["ok", 1, 100], relevance: ["ok", 4, 100], context_relevance: ["ok", 0.5, 100] }),
      trace("t2", 30, { grounding: ["ok", 0.5, 100], relevance: ["ok", 2, 100], context_relevance: ["ok", 0.25, 100] }),
      trace("t3", 10, { grounding: ["ok", 0, 100], relevance: ["ok", 3, 100], context_relevance: ["judge_error", null, 0] }),
      trace("t4", 5, { grounding: ["ok", 1, 100], relevance: ["ok", 4, 100], context_relevance: ["ok", 1, 100] }),
    ];
    await saveResults(store, { interactions: traces.map((t) => t.i), scores: traces.flatMap((t) => t.s), claims: [] });
    // Two scorers' minutes in the window, one minute before it (not counted).
    const minute = (msAgo: number) => Math.floor((now - msAgo) / MIN) * 60;
    const base = { spans_received: 0, traces_scored: 0, consumer_lag: 0, dlq_count: 0 };
    await saveIngestionStats(store, [
      { ...base, minute: minute(20 * MIN), scorer_id: "a", judge_errors: { timeout: 2, rate_limited: 1 }, judge_skipped_budget_exhausted: 3 },
      { ...base, minute: minute(20 * MIN), scorer_id: "b", judge_errors: { timeout: 1 }, judge_skipped_budget_exhausted: 0 },
      { ...base, minute: minute(2 * MIN), scorer_id: "a", judge_errors: {}, judge_skipped_budget_exhausted: 4 },
      { ...base, minute: minute(90 * MIN), scorer_id: "a", judge_errors: { bad_reply: 5 }, judge_skipped_budget_exhausted: 9 },
    ]);
  } finally {
    await store.close();
  }
}, 60_000);

describe("live view: every live metric of the table by name, and the stream's judge failures", () => {
  let s: LiveSummary;
  afterAll(() => undefined);

  it("live --json: context_relevance beside grounding and relevance, figures computed by hand", async () => {
    const r = await cli(["live", "--json", "--since", "1h", "--home", home]);
    expect(r.code, r.err).toBe(0);
    s = JSON.parse(r.out) as LiveSummary;
    // every live metric of the table, in its order (grounding_risk: no row stored here, no value)
    expect(s.metrics.map((m) => m.name)).toEqual(["grounding", "grounding_risk", "relevance", "context_relevance"]);
    expect(s.metrics.find((m) => m.name === "context_relevance")).toMatchObject({ label: "context rel.", max: 1 });
    expect(s.groups).toHaveLength(1);
    const g = s.groups[0] as LiveSummary["groups"][number];
    expect(g.traces_seen).toBe(4);
    expect(g.traces_scored).toBe(4);
    expect(Object.keys(g.metrics)).toEqual(["grounding", "grounding_risk", "relevance", "context_relevance"]);
    // context_relevance: ok values 0.5, 0.25, 1 (t3's judge failed) → mean 1.75 / 3.
    expect(g.metrics["context_relevance"]).toMatchObject({ n: 3, ci_n: 3, statuses: { judge_error: 1, ok: 3 } });
    expect(g.metrics["context_relevance"]?.mean).toBeCloseTo(1.75 / 3, 12);
    expect(g.metrics["grounding"]?.mean).toBeCloseTo(2.5 / 4, 12);
    expect(g.metrics["relevance"]?.mean).toBeCloseTo(13 / 4, 12);
    // Judge calls that spent tokens: 4 + 4 + 3, each 100 in + 10 out.
    expect(g.judge).toMatchObject({ calls: 11, input_tokens: 1100, output_tokens: 110 });
    // Buckets of 5 min: t1 (50 min ago) in bucket 2, t2 (30) in 6, t3 (10) in 10 (no context_relevance value), t4 (5) in 11.
    const cr = g.buckets.map((b) => b.metrics["context_relevance"] ?? null);
    expect(cr.filter((v) => v !== null)).toEqual([0.5, 0.25, 1]);
    expect(g.buckets.map((b) => b.traces).reduce((a, b) => a + b, 0)).toBe(4);
    // The stream: the window's minutes of both scorers (not the one 90 min ago).
    expect(s.stream).toEqual({ judge_errors: { rate_limited: 1, timeout: 3 }, judge_skipped_budget_exhausted: 7 });
  });

  it("live as text: a line per live metric by its label, and the stream's failures", async () => {
    const r = await cli(["live", "--since", "1h", "--home", home]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/^ {2}context rel\. {2}0\.583 \[[0-9.]+, [0-9.]+\] n=3$/mu);
    expect(r.out).toMatch(/^ {2}grounding {5}0\.625 /mu);
    expect(r.out).toMatch(/^ {2}relevance {5}3\.25 /mu);
    expect(r.out).toContain("failures rate_limited 1, timeout 3; skipped for the budget 7");
  });

  it("the page: a column per live metric by name, its trend line, and the stream's failures", () => {
    const html = renderLiveSection(s);
    expect(html).toContain(`<th data-metric="context_relevance">context rel. [95% CI]</th>`);
    expect(html).toMatch(/<td data-metric="context_relevance">0\.583 <span class="muted">\[[0-9.]+, [0-9.]+\]<\/span> <span class="muted">n=3<\/span><\/td>/u);
    expect(html).toContain(`<th data-metric="relevance">relevance 0–4 [95% CI]</th>`);
    // The trend: a line per metric in its table colour (context_relevance #e377c2), relevance ÷ 4.
    expect(html).toContain('stroke="#e377c2"');
    expect(html).toContain("trend (grounding, ground. risk, relevance ÷ 4, context rel., traces)");
    expect(html).toContain('<span data-kind="rate_limited">rate_limited 1</span>, <span data-kind="timeout">timeout 3</span>');
    expect(html).toContain("<span data-budget-exhausted>7</span>");
  });
});
