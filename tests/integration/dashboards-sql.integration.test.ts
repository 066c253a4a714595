// Every dashboard panel's SQL, expanded as grafana-clickhouse-datasource expands it, runs on seeded
// data in the embedded ClickHouse engine; rows are checked against numbers computed here, in plain
// TypeScript, from the seed. Every table is seeded with stale duplicates (same key, lower version,
// different values), so a query that forgets FINAL gets different rows — checked too.
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { claimSpan } from "../../core/src/domain/claimSpans.js";
import { DASHBOARDS, expandPanelSql, PANEL_SQL, type PanelId, type QueryContext, VARIABLE_SQL, type VariableValue } from "../../dashboards/src/index.js";
import { openStore, type Store } from "../../store/src/client.js";
import { UNMEASURED_INTERACTION } from "../helpers/interactionRow.js";

// ── seed ────────────────────────────────────────────────────────────────────────────────────────
const H = 3600_000;
const T0 = Date.UTC(2026, 2, 1); // 2026-03-01T00:00:00Z
const HASH = "h1";
const QUESTIONS = ["q1", "q2", "q3", "q4", "q5", "q6"] as const;
const TAGS: Record<string, string[]> = { q1: ["topic:a", "typo"], q2: ["topic:a"], q3: ["topic:b", "lang:ru"], q4: ["unanswerable"], q5: ["topic:b"], q6: ["ambiguous"] };
const KS = [1, 3, 5, 10];

interface Run {
  run_id: string;
  started: number;
  status: string;
  source: string;
  pv: string;
  hash: string;
}
interface Score {
  run_id: string;
  trace_id: string;
  golden_id: string;
  metric: string;
  repeat: number;
  value: number | null;
  status: string;
  kind: string;
  pv: string;
  source: string;
  created: number;
  tin: number;
  tout: number;
  latency: number;
}
interface Claim {
  run_id: string;
  trace_id: string;
  golden_id: string;
  idx: number;
  claim: string;
  verdict: string;
  pv: string;
  created: number;
}
interface Interaction {
  trace_id: string;
  run_id: string;
  golden_id: string;
  source: string;
  service: string;
  pv: string;
  question: string;
  answer: string;
  created: number;
}
interface Comparison {
  id: string;
  a: string;
  b: string;
  metric: string;
  n: number;
  mean_a: number;
  mean_b: number;
  delta: number;
  lo: number;
  hi: number;
  created: number;
}
interface Stat {
  minute: number;
  scorer: string;
  spans: number;
  traces: number;
  lag: number;
  dlq: number;
  /** Judge calls skipped: not_applicable, content_missing, context_incomplete, not_sampled, uncertain_reading. */
  skipped: [number, number, number, number, number];
}
interface Calibration {
  id: string;
  created: number;
  agreement: number;
  kappa: number;
}

const runs: Run[] = [
  { run_id: "r0", started: T0 - 40 * 24 * H, status: "completed", source: "golden", pv: "v0", hash: HASH }, // outside the time range
  { run_id: "r1", started: T0 + 1 * H, status: "completed", source: "golden", pv: "v1", hash: HASH },
  { run_id: "r2", started: T0 + 25 * H, status: "completed", source: "golden", pv: "v2", hash: HASH },
  { run_id: "rp", started: T0 + 30 * H, status: "completed", source: "replay", pv: "v2", hash: HASH },
  { run_id: "r3", started: T0 + 49 * H, status: "running", source: "golden", pv: "v3", hash: HASH },
];

/** Deterministic 0..1 from a string. */
function h01(s: string): number {
  let x = 2166136261;
  for (const c of s) x = Math.imul(x ^ c.charCodeAt(0), 16777619) >>> 0;
  return (x % 1000) / 1000;
}

const scores: Score[] = [];
const claims: Claim[] = [];
const interactions: Interaction[] = [];
const VERDICTS = ["SUPPORTED", "UNSUPPORTED", "CONTRADICTED"];
for (const r of runs) {
  QUESTIONS.forEach((q, qi) => {
    const trace = `${r.run_id}-${q}`;
    const created = r.started + (qi + 1) * 20 * 60_000; // 20 min apart: spans two 1 h buckets
    interactions.push({ trace_id: trace, run_id: r.run_id, golden_id: q, source: r.source, service: "", pv: r.pv, question: `question ${q}`, answer: `answer ${trace}`, created });
    const base = { run_id: r.run_id, trace_id: trace, golden_id: q, repeat: 0, pv: r.pv, source: r.source, created, tin: 0, tout: 0, latency: 0 };
    const unanswerable = q === "q4";
    // hit rank: r1 hits most questions at rank 1..3; r2 loses q2 and q5 at k ≥ 3
    const rank = unanswerable ? null : r.run_id === "r2" && (q === "q2" || q === "q5") ? 7 : r.run_id === "r1" ? 1 + (qi % 3) : 1 + (qi % 4);
    for (const k of KS) {
      scores.push({ ...base, metric: `recall@${k}`, kind: "mechanical", value: rank === null ? null : rank <= k ? 1 : 0, status: rank === null ? "not_applicable" : "ok" });
      // one relevant chunk per question: precision@k is 1/k when it is in the top k
      scores.push({ ...base, metric: `precision@${k}`, kind: "mechanical", value: rank === null ? null : rank <= k ? 1 / k : 0, status: rank === null ? "not_applicable" : "ok" });
      // and ndcg@k is 1/log2(rank + 1) (the ideal puts it at rank 1)
      scores.push({
        ...base,
        metric: `ndcg@${k}`,
        kind: "mechanical",
        value: rank === null ? null : rank <= k ? 1 / Math.log2(rank + 1) : 0,
        status: rank === null ? "not_applicable" : "ok",
      });
    }
    scores.push({ ...base, metric: "mrr", kind: "mechanical", value: rank === null ? null : 1 / rank, status: rank === null ? "not_applicable" : "ok" });
    scores.push({ ...base, metric: "abstention", kind: "mechanical", value: unanswerable ? 1 : null, status: unanswerable ? "ok" : "not_applicable" });
    scores.push({
      ...base,
      metric: "key_facts",
      kind: "mechanical",
      value: unanswerable ? null : Math.round(h01(`kf${trace}`) * 4) / 4,
      status: unanswerable ? "not_applicable" : "ok",
    });
    const judgeErr = r.run_id === "r2" && q === "q6";
    const nClaims = 1 + (qi % 3);
    let supported = 0;
    for (let c = 0; c < nClaims && !judgeErr; c++) {
      const verdict = VERDICTS[Math.floor(h01(`v${trace}${c}`) * 3)] ?? "SUPPORTED";
      if (verdict === "SUPPORTED") supported++;
      claims.push({ run_id: r.run_id, trace_id: trace, golden_id: q, idx: c, claim: `claim ${c} of ${trace}`, verdict, pv: r.pv, created });
    }
    const judge = { kind: "llm", tin: 100 + qi * 10, tout: 20 + qi, latency: 200 + qi * 50 };
    scores.push({ ...base, ...judge, metric: "grounding", value: judgeErr ? null : supported / nClaims, status: judgeErr ? "judge_error" : "ok" });
    scores.push({ ...base, ...judge, metric: "relevance", value: (qi * 3 + r.pv.charCodeAt(1)) % 5, status: "ok", latency: 150 + qi * 30 });
    // grounding risk (read from the grounding judgment: its judge, no tokens of its own) and context relevance (no-LLM judge)
    scores.push({
      ...base,
      ...judge,
      tin: 0,
      tout: 0,
      latency: 0,
      metric: "grounding_risk",
      value: judgeErr ? null : Math.round(h01(`gr${trace}`) * 8) / 8,
      status: judgeErr ? "judge_error" : "ok",
    });
    scores.push({ ...base, kind: "heuristic", metric: "context_relevance", value: Math.round(h01(`cr${trace}`) * 4) / 4, status: "ok" });
  });
}
// a repeat of grounding (r2 q1): averaged per question before the mean
scores.push({ ...scores.find((s) => s.run_id === "r2" && s.golden_id === "q1" && s.metric === "grounding")!, repeat: 1, value: 0.25, tin: 90, tout: 15, latency: 333 });
// live traffic (run id "live"): two services
for (let i = 0; i < 4; i++) {
  const trace = `live-${i}`;
  const created = T0 + 40 * H + i * 10 * 60_000;
  interactions.push({
    trace_id: trace,
    run_id: "live",
    golden_id: "",
    source: "live",
    service: i % 2 === 0 ? "svc-a" : "svc-b",
    pv: "v2",
    question: `live question ${i}`,
    // Its claim is a slice of it: stored as offsets (migration 16), the dashboard puts the text back.
    answer: `live answer ${i}. live claim ${i} Ж🧾.`,
    created,
  });
  const base = { run_id: "live", trace_id: trace, golden_id: "", repeat: 0, pv: "v2", source: "live", created, kind: "llm" };
  scores.push({ ...base, metric: "grounding", value: i === 3 ? null : ([1, 0.5, 0][i] ?? 0), status: i === 3 ? "context_too_long" : "ok", tin: 500, tout: 40, latency: 900 + i });
  scores.push({ ...base, metric: "relevance", value: i, status: "ok", tin: 300, tout: 10, latency: 400 + i });
  if (i !== 3)
    claims.push({
      run_id: "live",
      trace_id: trace,
      golden_id: "",
      idx: 0,
      claim: `live claim ${i} Ж🧾`,
      verdict: ["SUPPORTED", "CONTRADICTED", "UNSUPPORTED"][i] ?? "SUPPORTED",
      pv: "v2",
      created,
    });
}
const comparisons: Comparison[] = [];
for (const [id, a, b, created] of [
  ["c0", "r0", "r1", T0 + 2 * H],
  ["c1", "r1", "r2", T0 + 26 * H],
] as const) {
  for (const [j, metric] of ["grounding", "recall@5", "relevance"].entries()) {
    const d = (j - 1) * 0.1 + (id === "c1" ? -0.02 : 0.03);
    comparisons.push({ id, a, b, metric, n: 5 + j, mean_a: 0.6, mean_b: 0.6 + d, delta: d, lo: d - 0.05, hi: d + 0.05, created });
  }
}
const stats: Stat[] = [];
for (let m = 0; m < 6; m++)
  for (const scorer of ["s1", "s2"])
    stats.push({
      minute: T0 + 10 * H + m * 60_000 + (m >= 3 ? H : 0),
      scorer,
      spans: 10 * m + (scorer === "s1" ? 1 : 2),
      traces: m + 1,
      lag: scorer === "s1" ? 100 - m : 5 * m,
      dlq: m === 4 ? 2 : 0,
      skipped: [2 * m + (scorer === "s1" ? 1 : 0), m % 2, m === 5 ? 3 : 0, scorer === "s2" ? m : 0, m % 3 === 1 ? 2 : 0],
    });
const calibrations: Calibration[] = [
  { id: "cal1", created: T0 + 3 * H, agreement: 0.8, kappa: 0.6 },
  { id: "cal2", created: T0 + 50 * H, agreement: 0.9, kappa: 0.7 },
];

/** runs.summary with the judge block the eval runner writes; stale rows carry other numbers. */
function judgeStats(r: Run): { calls: number; cached: number; input_tokens: number; output_tokens: number; cost_usd: number | null } {
  const i = runs.indexOf(r);
  return { calls: 10 + i * 3, cached: i === 0 ? 0 : i * 2, input_tokens: 1000 * (i + 1), output_tokens: 50 * (i + 1), cost_usd: i === 2 ? null : 0.0125 * (i + 1) };
}
function judgeSummary(r: Run, stale: boolean): string {
  const j = judgeStats(r);
  return JSON.stringify({ metrics: {}, judge: stale ? { ...j, calls: j.calls + 100, cached: 0, cost_usd: 99 } : j });
}

// ── writing the seed: stale versions first (other values), then the real ones ─────────────────────
const ts = (ms: number): string => new Date(ms).toISOString().replace("T", " ").replace("Z", "");
const sec = (ms: number): string => ts(ms).slice(0, 19);

async function seed(store: Store): Promise<void> {
  const db = store.database;
  const ins = async (table: string, rows: Record<string, unknown>[]) => {
    if (rows.length > 0) await store.client.insert({ table: `${db}.${table}`, values: rows, format: "JSONEachRow" });
  };
  for (const stale of [true, false]) {
    const version = stale ? 1 : 2;
    await ins("golden_sets", [{ golden_set_hash: HASH, path: stale ? "old.jsonl" : "golden.jsonl", item_count: 6, created_at: ts(T0), version }]);
    await ins(
      "golden_items",
      QUESTIONS.map((q, i) => ({
        golden_set_hash: HASH,
        golden_id: q,
        position: i,
        question: stale ? `stale ${q}` : `question ${q}`,
        expected_source: q === "q4" ? null : "doc.md",
        expected_substring: null,
        reference_answer: null,
        key_facts: [],
        has_key_facts: 0,
        tags: stale ? ["stale-tag"] : TAGS[q],
        version,
      })),
    );
    await ins(
      "runs",
      runs.map((r) => ({
        run_id: r.run_id,
        started_at: ts(r.started),
        finished_at: null,
        status: stale ? (r.status === "completed" ? "running" : "completed") : r.status,
        source: r.source,
        pipeline_version: r.pv,
        golden_set_hash: r.hash,
        golden_set_path: "golden.jsonl",
        judge_kind: "llm",
        judge_model: "m",
        judge_prompt_version: "p",
        ks: KS,
        target: "t",
        summary: judgeSummary(r, stale),
        version,
      })),
    );
    await ins(
      "interactions",
      interactions.map((i) => ({
        trace_id: i.trace_id,
        run_id: i.run_id,
        golden_id: i.golden_id,
        source: i.source,
        service_name: stale && i.service !== "" ? "svc-stale" : i.service,
        deployment_environment: "",
        pipeline_version: i.pv,
        question: stale ? `stale ${i.question}` : i.question,
        answer: i.answer,
        retrieved: [],
        ...UNMEASURED_INTERACTION,
        created_at: ts(i.created),
        version,
      })),
    );
    await ins(
      "scores",
      scores.map((s) => ({
        run_id: s.run_id,
        trace_id: s.trace_id,
        metric: s.metric,
        judge_prompt_version: s.kind === "mechanical" ? "" : "p",
        repeat_index: s.repeat,
        golden_id: s.golden_id,
        // stale: another value, and for some rows another status
        value: stale ? (s.value === null ? 0.5 : 1 - s.value) : s.value,
        status: stale ? (s.status === "ok" && h01(`st${s.trace_id}${s.metric}`) < 0.2 ? "judge_error" : s.status === "ok" ? "ok" : "ok") : s.status,
        reason: "",
        judge_kind: s.kind,
        judge_model: s.kind === "mechanical" ? "" : "m",
        pipeline_version: s.pv,
        source: s.source,
        created_at: ts(s.created),
        judge_input_tokens: stale ? s.tin * 3 + 1 : s.tin,
        judge_output_tokens: stale ? s.tout * 3 + 1 : s.tout,
        latency_ms: stale ? s.latency * 7 + 1 : s.latency,
        version,
      })),
    );
    await ins(
      "claims",
      claims.map((c) => ({
        run_id: c.run_id,
        trace_id: c.trace_id,
        judge_prompt_version: "p",
        repeat_index: 0,
        claim_index: c.idx,
        golden_id: c.golden_id,
        ...(stale ? { claim: `stale ${c.claim}` } : claimSpan(c.claim, interactionOf.get(c.trace_id)?.answer ?? null)),
        verdict: stale ? (c.verdict === "SUPPORTED" ? "CONTRADICTED" : "SUPPORTED") : c.verdict,
        chunk_ids: [],
        judge_model: "m",
        pipeline_version: c.pv,
        created_at: ts(c.created),
        version,
      })),
    );
    await ins(
      "comparisons",
      comparisons.map((c) => ({
        comparison_id: c.id,
        run_a: c.a,
        run_b: c.b,
        metric: c.metric,
        n: stale ? c.n + 10 : c.n,
        mean_a: c.mean_a,
        mean_b: c.mean_b,
        delta: stale ? c.delta + 1 : c.delta,
        ci_lower: stale ? -9 : c.lo,
        ci_upper: stale ? 9 : c.hi,
        seed: 1,
        resamples: 10000,
        created_at: ts(c.created),
        version,
      })),
    );
    await ins(
      "ingestion_stats",
      stats.map((s) => ({
        minute: sec(s.minute),
        scorer_id: s.scorer,
        spans_received: stale ? s.spans + 1000 : s.spans,
        traces_scored: stale ? s.traces + 1000 : s.traces,
        consumer_lag: stale ? s.lag + 1000 : s.lag,
        dlq_count: stale ? s.dlq + 1000 : s.dlq,
        judge_skipped_not_applicable: stale ? s.skipped[0] + 1000 : s.skipped[0],
        judge_skipped_content_missing: s.skipped[1],
        judge_skipped_context_incomplete: s.skipped[2],
        judge_skipped_not_sampled: s.skipped[3],
        judge_skipped_uncertain_reading: s.skipped[4],
        version,
      })),
    );
    await ins(
      "calibrations",
      calibrations.map((c) => ({
        calibration_id: c.id,
        created_at: ts(stale ? c.created + H : c.created),
        judge_kind: "llm",
        judge_model: "m",
        judge_prompt_version: "p",
        source_run_id: "r1",
        file: "labels.jsonl",
        n_claims: 40,
        claim_agreement: stale ? 0.1 : c.agreement,
        claim_kappa: stale ? 0.1 : c.kappa,
        n_relevance: 30,
        relevance_agreement: 0.7,
        relevance_qwk: 0.5,
        version,
      })),
    );
  }
}

// ── filters and independent computations ────────────────────────────────────────────────────────
interface Scenario {
  readonly name: string;
  readonly k: number;
  readonly pv: readonly string[] | null; // null = All
  readonly source: readonly string[] | null;
  readonly service: readonly string[] | null;
  readonly golden: readonly string[] | null;
}
const FROM = T0;
const TO = T0 + 72 * H;
const INTERVAL = H;
const SCENARIOS: Scenario[] = [
  { name: "everything (All), k=5", k: 5, pv: null, source: null, service: null, golden: null },
  { name: "pipeline v1+v2, golden+live, k=3", k: 3, pv: ["v1", "v2"], source: ["golden", "live"], service: null, golden: null },
  { name: "service svc-a, k=10", k: 10, pv: null, source: null, service: ["svc-a"], golden: null },
  { name: "golden set h1, replay only, k=1", k: 1, pv: null, source: ["replay"], service: null, golden: [HASH] },
];

function ctx(s: Scenario): QueryContext {
  const v = (x: readonly string[] | null, all: readonly string[]): VariableValue => (x === null ? { all: true, values: all } : x);
  return {
    from: FROM,
    to: TO,
    intervalMs: INTERVAL,
    variables: {
      k: String(s.k),
      pipeline_version: v(s.pv, ["v0", "v1", "v2", "v3"]),
      source: v(s.source, ["golden", "replay", "live"]),
      service: v(s.service, ["svc-a", "svc-b"]),
      golden_set: v(s.golden, [HASH]),
    },
  };
}

const interactionOf = new Map(interactions.map((i) => [i.trace_id, i]));
const runOf = new Map(runs.map((r) => [r.run_id, r]));
const inTime = (t: number) => t >= Math.floor(FROM / 1000) * 1000 && t <= Math.floor(TO / 1000) * 1000;
const bucket = (t: number) => sec(Math.floor(t / INTERVAL) * INTERVAL);

/** The filters of `filters()` on a row with run, trace, version, source (source from the row or its interaction). */
function keep(s: Scenario, row: { run_id: string; trace_id: string; pv: string; created: number; source?: string }): boolean {
  const i = interactionOf.get(row.trace_id);
  const source = row.source ?? i?.source;
  if (!inTime(row.created)) return false;
  if (s.pv && !s.pv.includes(row.pv)) return false;
  if (s.golden && !(runOf.get(row.run_id) && s.golden.includes(runOf.get(row.run_id)!.hash))) return false;
  if (s.source && !(source !== undefined && s.source.includes(source))) return false;
  if (s.service && !(i && s.service.includes(i.service))) return false;
  return true;
}
function keepRun(s: Scenario, r: Run): boolean {
  return inTime(r.started) && (!s.pv || s.pv.includes(r.pv)) && (!s.golden || s.golden.includes(r.hash)) && (!s.source || s.source.includes(r.source));
}
const mean = (xs: number[]): number | null => (xs.length === 0 ? null : xs.reduce((a, b) => a + b, 0) / xs.length);

/** Per-question ok means (repeats averaged). */
function perQuestion(s: Scenario, metrics: readonly string[]) {
  const m = new Map<string, { run_id: string; trace_id: string; golden_id: string; metric: string; pv: string; vs: number[]; created: number }>();
  for (const x of scores) {
    if (x.status !== "ok" || !metrics.includes(x.metric) || !keep(s, x)) continue;
    const key = `${x.run_id}|${x.trace_id}|${x.golden_id}|${x.metric}|${x.pv}`;
    const e = m.get(key) ?? { run_id: x.run_id, trace_id: x.trace_id, golden_id: x.golden_id, metric: x.metric, pv: x.pv, vs: [], created: 0 };
    e.vs.push(x.value ?? Number.NaN);
    e.created = Math.max(e.created, x.created);
    m.set(key, e);
  }
  return [...m.values()].map((e) => ({ ...e, v: mean(e.vs) ?? Number.NaN }));
}
function groupBy<T>(xs: readonly T[], key: (x: T) => string): Map<string, T[]> {
  const m = new Map<string, T[]>();
  for (const x of xs) m.set(key(x), [...(m.get(key(x)) ?? []), x]);
  return m;
}
const avgOf = (rows: { metric: string; v: number }[], metric: string) => mean(rows.filter((r) => r.metric === metric).map((r) => r.v));
const quantileExact = (xs: number[], level: number) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(level * sorted.length))] ?? null;
};

type Row = Record<string, unknown>;
const EXPECTED: Record<PanelId, (s: Scenario) => Row[]> = {
  overview_trend: (s) => {
    const rows = scores.filter((x) => x.status === "ok" && [`recall@${s.k}`, "grounding", "relevance", "key_facts"].includes(x.metric) && keep(s, x));
    return [...groupBy(rows, (x) => `${bucket(x.created)}|${x.metric}`)]
      .map(([key, xs]) => ({ time: key.split("|")[0], metric: key.split("|")[1], value: mean(xs.map((x) => x.value!)) }))
      .sort((a, b) => `${a.time}|${a.metric}`.localeCompare(`${b.time}|${b.metric}`));
  },
  overview_by_version: (s) => {
    const pq = perQuestion(s, [`recall@${s.k}`, "mrr", "grounding", "grounding_risk", "relevance", "context_relevance", "key_facts"]);
    return [...groupBy(pq, (x) => x.pv)]
      .map(([pv, xs]) => ({
        pipeline_version: pv,
        recall_at_k: avgOf(xs, `recall@${s.k}`),
        mrr: avgOf(xs, "mrr"),
        grounding: avgOf(xs, "grounding"),
        grounding_risk: avgOf(xs, "grounding_risk"),
        relevance: avgOf(xs, "relevance"),
        context_relevance: avgOf(xs, "context_relevance"),
        key_facts: avgOf(xs, "key_facts"),
        questions: new Set(xs.map((x) => x.trace_id)).size,
        last_scored: ts(Math.max(...xs.map((x) => x.created))),
        _t: Math.max(...xs.map((x) => x.created)),
      }))
      .sort((a, b) => b._t - a._t || a.pipeline_version.localeCompare(b.pipeline_version))
      .map(({ _t, ...r }) => r);
  },
  overview_last_vs_previous: (s) => {
    const okRuns = new Set(runs.filter((r) => keepRun(s, r)).map((r) => r.run_id));
    const cands = comparisons.filter((c) => inTime(c.created) && okRuns.has(c.b)).sort((a, b) => b.created - a.created);
    const last = cands[0]?.id;
    return comparisons
      .filter((c) => c.id === last)
      .sort((a, b) => a.metric.localeCompare(b.metric))
      .map((c) => ({
        metric: c.metric,
        previous_version: runOf.get(c.a)!.pv,
        last_version: runOf.get(c.b)!.pv,
        previous: c.mean_a,
        last: c.mean_b,
        delta: c.delta,
        ci_lower: c.lo,
        ci_upper: c.hi,
        n: c.n,
        interval_excludes_0: c.lo > 0 || c.hi < 0 ? "yes" : "no",
      }));
  },
  retrieval_by_version: (s) => {
    const pq = perQuestion(s, [...KS.flatMap((k) => [`recall@${k}`, `precision@${k}`, `ndcg@${k}`]), "mrr"]);
    return [...groupBy(pq, (x) => x.pv)]
      .map(([pv, xs]) => ({
        pipeline_version: pv,
        recall_at_1: avgOf(xs, "recall@1"),
        recall_at_3: avgOf(xs, "recall@3"),
        recall_at_5: avgOf(xs, "recall@5"),
        recall_at_10: avgOf(xs, "recall@10"),
        ...Object.fromEntries(KS.map((k) => [`precision_at_${k}`, avgOf(xs, `precision@${k}`)])),
        ...Object.fromEntries(KS.map((k) => [`ndcg_at_${k}`, avgOf(xs, `ndcg@${k}`)])),
        mrr: avgOf(xs, "mrr"),
        answerable_questions: new Set(xs.filter((x) => x.metric === "mrr").map((x) => x.trace_id)).size,
        _t: Math.max(...xs.map((x) => x.created)),
      }))
      .sort((a, b) => b._t - a._t || a.pipeline_version.localeCompare(b.pipeline_version))
      .map(({ _t, ...r }) => r);
  },
  retrieval_lost_hit: (s) => {
    const byTime = (a: Run, b: Run) => b.started - a.started || b.run_id.localeCompare(a.run_id);
    const last = runs.filter((r) => r.status === "completed" && keepRun(s, r)).sort(byTime)[0];
    if (!last) return [];
    const prev = runs.filter((r) => r.status === "completed" && r.hash === last.hash && r.run_id !== last.run_id && r.started <= last.started).sort(byTime)[0];
    if (!prev) return [];
    const hit = (run: string, q: string) =>
      mean(scores.filter((x) => x.run_id === run && x.golden_id === q && x.metric === `recall@${s.k}` && x.status === "ok").map((x) => x.value!));
    return QUESTIONS.filter((q) => hit(prev.run_id, q) === 1 && hit(last.run_id, q) === 0).map((q) => ({
      golden_id: q,
      question: `question ${q}`,
      previous_version: prev.pv,
      last_version: last.pv,
      trace_id: `${last.run_id}-${q}`,
    }));
  },
  grounding_verdicts: (s) => {
    const cs = claims.filter((c) => keep(s, c));
    return [...groupBy(cs, (c) => `${bucket(c.created)}|${c.verdict}`)]
      .map(([key, xs]) => ({ time: key.split("|")[0], verdict: key.split("|")[1], claims: xs.length }))
      .sort((a, b) => `${a.time}|${a.verdict}`.localeCompare(`${b.time}|${b.verdict}`));
  },
  grounding_by_version: (s) => {
    const cs = claims.filter((c) => keep(s, c));
    return [...groupBy(cs, (c) => c.pv)]
      .map(([pv, xs]) => ({
        pipeline_version: pv,
        supported: xs.filter((c) => c.verdict === "SUPPORTED").length,
        unsupported: xs.filter((c) => c.verdict === "UNSUPPORTED").length,
        contradicted: xs.filter((c) => c.verdict === "CONTRADICTED").length,
        supported_share: xs.filter((c) => c.verdict === "SUPPORTED").length / xs.length,
      }))
      .sort((a, b) => a.pipeline_version.localeCompare(b.pipeline_version));
  },
  grounding_recent_bad: (s) =>
    claims
      .filter((c) => c.verdict !== "SUPPORTED" && keep(s, c))
      .sort((a, b) => b.created - a.created || a.trace_id.localeCompare(b.trace_id) || a.idx - b.idx)
      .slice(0, 50)
      .map((c) => ({
        time: ts(c.created),
        verdict: c.verdict,
        claim: c.claim,
        question: interactionOf.get(c.trace_id)!.question,
        pipeline_version: c.pv,
        trace_id: c.trace_id,
        golden_id: c.golden_id,
      })),
  relevance_distribution: (s) => {
    const pq = perQuestion(s, ["relevance"]);
    return [...groupBy(pq, (x) => x.pv)]
      .map(([pv, xs]) => ({ pipeline_version: pv, ...Object.fromEntries([0, 1, 2, 3, 4].map((n) => [`score_${n}`, xs.filter((x) => Math.round(x.v) === n).length])) }))
      .sort((a, b) => a.pipeline_version.localeCompare(b.pipeline_version));
  },
  relevance_low: (s) =>
    perQuestion(s, ["relevance"])
      .filter((x) => x.v <= 1)
      .sort((a, b) => a.v - b.v || b.created - a.created || a.trace_id.localeCompare(b.trace_id))
      .slice(0, 50)
      .map((x) => ({
        time: ts(x.created),
        relevance: x.v,
        question: interactionOf.get(x.trace_id)!.question,
        answer: interactionOf.get(x.trace_id)!.answer,
        pipeline_version: x.pv,
        trace_id: x.trace_id,
        golden_id: x.golden_id,
      })),
  judges_calls: (s) => {
    // grounding_risk rows read the grounding judgment: no call of their own
    const xs = scores.filter((x) => ["llm", "heuristic"].includes(x.kind) && x.metric !== "grounding_risk" && keep(s, x));
    return [...groupBy(xs, (x) => `${bucket(x.created)}|${x.kind}`)]
      .map(([key, g]) => ({ time: key.split("|")[0], judge_kind: key.split("|")[1], calls: g.length }))
      .sort((a, b) => `${a.time}|${a.judge_kind}`.localeCompare(`${b.time}|${b.judge_kind}`));
  },
  judges_tokens: (s) => {
    const xs = scores.filter((x) => ["llm", "heuristic"].includes(x.kind) && keep(s, x));
    return [...groupBy(xs, (x) => bucket(x.created))]
      .map(([time, g]) => ({ time, tokens_in: g.reduce((a, x) => a + x.tin, 0), tokens_out: g.reduce((a, x) => a + x.tout, 0) }))
      .sort((a, b) => a.time.localeCompare(b.time));
  },
  judges_status: (s) => {
    const xs = scores.filter((x) => ["llm", "heuristic"].includes(x.kind) && keep(s, x));
    return [...groupBy(xs, (x) => `${x.metric}|${x.status}`)]
      .map(([key, g]) => ({ metric: key.split("|")[0], status: key.split("|")[1], results: g.length }))
      .sort((a, b) => (a.metric === b.metric ? (a.status ?? "").localeCompare(b.status ?? "") : (a.metric ?? "") < (b.metric ?? "") ? -1 : 1));
  },
  judges_latency: (s) => {
    // a model call: tokens sent (view metrics such as grounding_risk and cached judgments have none)
    const xs = scores.filter((x) => x.kind === "llm" && x.status !== "not_sampled" && x.tin > 0 && keep(s, x));
    return [...groupBy(xs, (x) => bucket(x.created))]
      .map(([time, g]) => ({
        time,
        p50_ms: quantileExact(
          g.map((x) => x.latency),
          0.5,
        ),
        p95_ms: quantileExact(
          g.map((x) => x.latency),
          0.95,
        ),
      }))
      .sort((a, b) => a.time.localeCompare(b.time));
  },
  judges_runs: (s) =>
    runs
      .filter((r) => r.status === "completed" && keepRun(s, r))
      .sort((a, b) => b.started - a.started || a.run_id.localeCompare(b.run_id))
      .map((r) => {
        const j = judgeStats(r);
        return {
          time: ts(r.started),
          run_id: r.run_id,
          pipeline_version: r.pv,
          calls: j.calls,
          cached: j.cached,
          cached_share: j.calls + j.cached === 0 ? null : j.cached / (j.calls + j.cached),
          tokens_in: j.input_tokens,
          tokens_out: j.output_tokens,
          cost_usd: j.cost_usd,
        };
      }),
  judges_calibration: () => {
    const c = [...calibrations].sort((a, b) => b.created - a.created)[0]!;
    return [
      {
        time: ts(c.created),
        judge_kind: "llm",
        judge_model: "m",
        judge_prompt_version: "p",
        n_claims: 40,
        claim_agreement: c.agreement,
        claim_kappa: c.kappa,
        n_relevance: 30,
        relevance_agreement: 0.7,
        relevance_qwk: 0.5,
        file: "labels.jsonl",
      },
    ];
  },
  judges_skipped: () =>
    [
      ...groupBy(
        stats.filter((x) => inTime(x.minute)),
        (x) => bucket(x.minute),
      ),
    ]
      .map(([time, g]) => ({
        time,
        not_applicable: g.reduce((a, x) => a + x.skipped[0], 0),
        content_missing: g.reduce((a, x) => a + x.skipped[1], 0),
        context_incomplete: g.reduce((a, x) => a + x.skipped[2], 0),
        uncertain_reading: g.reduce((a, x) => a + x.skipped[4], 0),
        not_sampled: g.reduce((a, x) => a + x.skipped[3], 0),
      }))
      .sort((a, b) => a.time.localeCompare(b.time)),
  ingestion_throughput: () =>
    [
      ...groupBy(
        stats.filter((x) => inTime(x.minute)),
        (x) => bucket(x.minute),
      ),
    ]
      .map(([time, g]) => ({
        time,
        spans_received: g.reduce((a, x) => a + x.spans, 0),
        traces_scored: g.reduce((a, x) => a + x.traces, 0),
        dead_lettered: g.reduce((a, x) => a + x.dlq, 0),
      }))
      .sort((a, b) => a.time.localeCompare(b.time)),
  ingestion_lag: () =>
    [
      ...groupBy(
        stats.filter((x) => inTime(x.minute)),
        (x) => `${bucket(x.minute)}|${x.scorer}`,
      ),
    ]
      .map(([key, g]) => ({ time: key.split("|")[0], scorer_id: key.split("|")[1], consumer_lag: Math.max(...g.map((x) => x.lag)) }))
      .sort((a, b) => `${a.time}|${a.scorer_id}`.localeCompare(`${b.time}|${b.scorer_id}`)),
  tags_metrics: (s) => {
    const pq = perQuestion(s, [
      `recall@${s.k}`,
      `precision@${s.k}`,
      `ndcg@${s.k}`,
      "mrr",
      "grounding",
      "grounding_risk",
      "relevance",
      "context_relevance",
      "key_facts",
      "abstention",
    ]).filter((x) => runOf.has(x.run_id));
    const tagged = pq.flatMap((x) => (TAGS[x.golden_id] ?? []).map((tag) => ({ ...x, tag })));
    return [...groupBy(tagged, (x) => `${x.tag}|${x.pv}`)]
      .map(([key, xs]) => ({
        tag: key.split("|")[0],
        pipeline_version: key.split("|")[1],
        recall_at_k: avgOf(xs, `recall@${s.k}`),
        precision_at_k: avgOf(xs, `precision@${s.k}`),
        ndcg_at_k: avgOf(xs, `ndcg@${s.k}`),
        mrr: avgOf(xs, "mrr"),
        grounding: avgOf(xs, "grounding"),
        grounding_risk: avgOf(xs, "grounding_risk"),
        relevance: avgOf(xs, "relevance"),
        context_relevance: avgOf(xs, "context_relevance"),
        key_facts: avgOf(xs, "key_facts"),
        abstention: avgOf(xs, "abstention"),
        questions: new Set(xs.map((x) => x.trace_id)).size,
      }))
      .sort((a, b) => `${a.tag}|${a.pipeline_version}`.localeCompare(`${b.tag}|${b.pipeline_version}`));
  },
};

/** ClickHouse JSON → comparable values: numeric strings (UInt64) to numbers, floats rounded. */
function normalise(rows: Row[]): Row[] {
  const n = (v: unknown): unknown => {
    if (typeof v === "string" && /^-?\d+(\.\d+)?$/u.test(v)) return Number(v);
    if (typeof v === "number") return Math.round(v * 1e9) / 1e9;
    return v;
  };
  return rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, n(v)])));
}

// ── the test ────────────────────────────────────────────────────────────────────────────────────
let store: Store;
async function run(sql: string): Promise<Row[]> {
  const rs = await store.client.query({ query: sql, format: "JSONEachRow" });
  return rs.json<Row>();
}

describe("dashboard panel SQL on the ClickHouse engine", () => {
  beforeAll(async () => {
    const home = await mkdtemp(path.join(tmpdir(), "ragmeter-dash-"));
    store = await openStore({ kind: "embedded", home, database: "ragmeter" });
    await seed(store);
    // the datasource's defaultDatabase is the connection's database: same here
    await store.client.command({ query: `USE ${store.database}` });
  });
  afterAll(async () => {
    await store?.close();
  });

  it("every panel of every dashboard has a checked query", () => {
    const ids = DASHBOARDS.flatMap((d) => d.panels.map((p) => p.id)).sort();
    expect(ids).toEqual(Object.keys(PANEL_SQL).sort());
    expect(Object.keys(EXPECTED).sort()).toEqual(ids);
  });

  for (const s of SCENARIOS) {
    for (const id of Object.keys(PANEL_SQL) as PanelId[]) {
      it(`${id} — ${s.name}`, async () => {
        const sql = expandPanelSql(PANEL_SQL[id], ctx(s));
        expect(sql).not.toMatch(/\$/u);
        const got = normalise(await run(sql));
        const want = normalise(EXPECTED[id](s));
        expect(got).toEqual(want);
      });
    }
  }

  it("every panel returns rows in some scenario, and a copy of its SQL without FINAL gets other rows", async () => {
    const empty: string[] = [];
    const insensitive: string[] = [];
    for (const id of Object.keys(PANEL_SQL) as PanelId[]) {
      let sensitive = false;
      let rows = 0;
      for (const s of SCENARIOS) {
        const want = normalise(EXPECTED[id](s));
        rows += want.length;
        const sql = expandPanelSql(PANEL_SQL[id], ctx(s)).replace(/\bFINAL\b/gu, "");
        const got = normalise(await run(sql).catch(() => [{ error: true }]));
        if (JSON.stringify(got) !== JSON.stringify(want)) sensitive = true;
      }
      if (rows === 0) empty.push(id);
      if (!sensitive) insensitive.push(id);
    }
    expect(empty).toEqual([]);
    expect(insensitive).toEqual([]);
  });

  it("variable queries list the current values once", async () => {
    expect(await run(VARIABLE_SQL.pipelineVersion)).toEqual(["v0", "v1", "v2", "v3"].map((v) => ({ pipeline_version: v })));
    const gs = await run(VARIABLE_SQL.goldenSet);
    expect(gs.map((r) => Object.values(r))).toEqual([[HASH, "golden.jsonl (h1)"]]);
    expect(await run(VARIABLE_SQL.service)).toEqual([{ service_name: "svc-a" }, { service_name: "svc-b" }]);
  });
});
