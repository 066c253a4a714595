// Every Grafana alert rule's SQL (dashboards/src/alerts.ts), expanded as grafana-clickhouse-datasource
// expands it (macros over the rule's relative time range) with the alerting datasource's custom
// settings in place of getSetting(...), runs on seeded data in the embedded ClickHouse engine. The
// seed has, for each rule, rows where it must fire and rows where it must not (below the bound, too
// few questions, outside the time range, the wrong judge kind, a version no longer scored …); the
// values asserted are computed by hand in the comments. Every row is also written as a stale
// duplicate (same key, lower version, other values), so a query that forgets FINAL gets other rows —
// checked too.
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ALERT_SETTINGS, ALERT_SQL, ALERTS, type AlertId, expandAlertSql } from "../../dashboards/src/index.js";
import { openStore, type Store } from "../../store/src/client.js";
import { UNMEASURED_INTERACTION } from "../helpers/interactionRow.js";

// ── seed ────────────────────────────────────────────────────────────────────────────────────────
const M = 60_000;
const H = 60 * M;
const T0 = Date.UTC(2026, 2, 1); // 2026-03-01T00:00:00Z
const NOW = T0 + 48 * H; // evaluation time

interface Score {
  source: string;
  pv: string;
  trace: string;
  metric: string;
  value: number | null;
  status: string;
  created: number;
  repeat: number;
  kind: string;
  tin: number;
  tout: number;
}
interface Interaction {
  trace: string;
  source: string;
  pv: string;
  service: string;
  created: number;
}
interface Stat {
  minute: number;
  scorer: string;
  lag: number;
  dlq: number;
}

const scores: Score[] = [];
const interactions: Interaction[] = [];
const stats: Stat[] = [];

type Extra = Partial<Pick<Score, "status" | "repeat" | "kind" | "tin" | "tout">> & { service?: string };
function add(source: string, pv: string, trace: string, metric: string, value: number | null, created: number, extra: Extra = {}): void {
  const kind = extra.kind ?? (metric.startsWith("recall@") ? "mechanical" : "llm");
  scores.push({ source, pv, trace, metric, value, status: extra.status ?? "ok", created, repeat: extra.repeat ?? 0, kind, tin: extra.tin ?? 0, tout: extra.tout ?? 0 });
  if (!interactions.some((i) => i.trace === trace)) interactions.push({ trace, source, pv, service: extra.service ?? "svc-w", created });
}
/** One question: the listed metrics at one time. */
function question(source: string, pv: string, trace: string, created: number, values: Record<string, number | null>, extra: Extra = {}): void {
  for (const [metric, v] of Object.entries(values)) add(source, pv, trace, metric, v, created, extra);
}
const at = (i: number, start: number) => start + i * 10 * M;

// golden v0, five days before: not scored in the last 24 h, so v1's drop against it never fires
[0, 1, 2, 3].forEach((i) => {
  question("golden", "v0", `g0-${i}`, at(i, T0 - 120 * H), { grounding: 1, relevance: 4, "recall@5": 1 });
});
// golden v1: grounding 1, 1, 0.5, 0.5 (mean 0.75); relevance 4, 3, 3, 2 (3); recall@5 and @3 all 1
const g1 = { grounding: [1, 1, 0.5, 0.5], relevance: [4, 3, 3, 2], "recall@5": [1, 1, 1, 1], "recall@3": [1, 1, 1, 1] };
[0, 1, 2, 3].forEach((i) => {
  question("golden", "v1", `g1-${i}`, at(i, T0 + H), Object.fromEntries(Object.entries(g1).map(([m, vs]) => [m, vs[i]!])));
});
// … and a judge error (not ok: never averaged)
question("golden", "v1", "g1-4", at(4, T0 + H), { grounding: null, relevance: null }, { status: "judge_error" });
// golden v2 (from T0+30h): grounding 0.5 (with a repeat 0.25: question mean 0.375), 0.5, 0.5, 0.75 → 2.125 / 4 = 0.53125;
// relevance 3, 3, 3, 2 → 2.75 (drop 0.25: below 0.3); recall@5 1, 0, 1, 0 → 0.5; recall@3 all 1
const g2 = { grounding: [0.5, 0.5, 0.5, 0.75], relevance: [3, 3, 3, 2], "recall@5": [1, 0, 1, 0], "recall@3": [1, 1, 1, 1] };
[0, 1, 2, 3].forEach((i) => {
  question("golden", "v2", `g2-${i}`, at(i, T0 + 30 * H), Object.fromEntries(Object.entries(g2).map(([m, vs]) => [m, vs[i]!])));
});
add("golden", "v2", "g2-0", "grounding", 0.25, at(0, T0 + 30 * H), { repeat: 1 });

// replay v1 (T0+3h): grounding and relevance all 1 and 4
[0, 1, 2, 3].forEach((i) => {
  question("replay", "v1", `p1-${i}`, at(i, T0 + 3 * H), { grounding: 1, relevance: 4 });
});
// replay v2 (T0+40h): grounding 0, 0 on two questions only (fewer than 3: no alert); relevance 3, 3, 2 → 8/3
[0, 1].forEach((i) => {
  add("replay", "v2", `p2-${i}`, "grounding", 0, at(i, T0 + 40 * H));
});
[3, 3, 2].forEach((v, i) => {
  add("replay", "v2", `p2-${i}`, "relevance", v, at(i, T0 + 40 * H));
});
// replay v2 recall@5: 1, 1, 1, 1 in the 24 h before the last hour, then 0, 1, 0 in the last hour (mechanical
// rows with token counts: never judge tokens)
[0, 1, 2, 3].forEach((i) => {
  add("replay", "v2", `p2-${i}`, "recall@5", 1, at(i, T0 + 40 * H));
});
[0, 1, 0].forEach((v, i) => {
  add("replay", "v2", `p2-r${i}`, "recall@5", v, at(i, NOW - 30 * M), { tin: 77_777, tout: 7 });
});

// live v1: grounding 0.5 and relevance 3 everywhere (T0+5h, 24–26h, last hour): no drop
const judged = { tin: 1000, tout: 100 };
const judgedRel = { tin: 500, tout: 50 };
const live = (pv: string, trace: string, created: number, g: number, r: number, extra: Extra = {}) => {
  add("live", pv, trace, "grounding", g, created, { ...extra, ...(created > NOW - H ? judged : {}) });
  add("live", pv, trace, "relevance", r, created, { ...extra, ...(created > NOW - H ? judgedRel : {}) });
};
live("v1", "l1-old", T0 + 5 * H, 0.5, 3);
[24, 25, 26].forEach((h, i) => {
  live("v1", `l1-b${i}`, T0 + h * H, 0.5, 3);
});
[50, 40, 30].forEach((m, i) => {
  live("v1", `l1-r${i}`, NOW - m * M, 0.5, 3);
});
// live v2: one old trace (T0+10h, outside the trailing windows) 0 / 0; the 24 h before the last hour
// grounding 1, 1, 0.5, 1 (0.875), relevance 4, 4, 3, 3 (3.5); the last hour 0.5, 0.5, 0.25 (1.25/3), 2, 2, 3
// (and the ok relevance 2s of the content_missing block below, also live v2)
live("v2", "l2-old", T0 + 10 * H, 0, 0);
[30, 32, 34, 46].forEach((h, i) => {
  live("v2", `l2-b${i}`, T0 + h * H, [1, 1, 0.5, 1][i]!, [4, 4, 3, 3][i]!, h === 46 ? { tin: 50_000, tout: 1 } : {});
});
[45, 35, 25].forEach((m, i) => {
  live("v2", `l2-r${i}`, NOW - m * M, [0.5, 0.5, 0.25][i]!, [2, 2, 3][i]!);
});

// grounding_risk (lower is better: its rules fire on a rise). golden v1 0.25, 0.25, 0.5, 0.5 (0.375); v2 0.5
// (with a repeat 1: question mean 0.75), 0.25, 0.5, 0.5 → 2 / 4 = 0.5: a rise of 0.125
[0.25, 0.25, 0.5, 0.5].forEach((v, i) => {
  add("golden", "v1", `g1-${i}`, "grounding_risk", v, at(i, T0 + H));
});
[0.5, 0.25, 0.5, 0.5].forEach((v, i) => {
  add("golden", "v2", `g2-${i}`, "grounding_risk", v, at(i, T0 + 30 * H));
});
add("golden", "v2", "g2-0", "grounding_risk", 1, at(0, T0 + 30 * H), { repeat: 1 });
// replay v1 0.25 × 4; v2 0.125, 0.125, 0.25 (1/6): a fall, never an alert
[0, 1, 2, 3].forEach((i) => {
  add("replay", "v1", `p1-${i}`, "grounding_risk", 0.25, at(i, T0 + 3 * H));
});
[0.125, 0.125, 0.25].forEach((v, i) => {
  add("replay", "v2", `p2-${i}`, "grounding_risk", v, at(i, T0 + 40 * H));
});
// live v1: 0.2 (T0+5h), 0.3 × 3 (24–26h), 0.1 × 3 in the last hour: 1.4 / 7 = 0.2, and a fall in the last hour.
// live v2: 0.4 (T0+10h, outside the trailing windows), 0.1, 0.1, 0.2, 0.2 (0.15), the last hour 0.3, 0.3, 0.2
// (0.8 / 3): 1.8 / 8 = 0.225, a rise of 0.025 on v1 (below 0.05); the last hour 0.8 / 3 − 0.15 above the 24 h before
add("live", "v1", "l1-old", "grounding_risk", 0.2, T0 + 5 * H);
[24, 25, 26].forEach((h, i) => {
  add("live", "v1", `l1-b${i}`, "grounding_risk", 0.3, T0 + h * H);
});
[50, 40, 30].forEach((m, i) => {
  add("live", "v1", `l1-r${i}`, "grounding_risk", 0.1, NOW - m * M);
});
add("live", "v2", "l2-old", "grounding_risk", 0.4, T0 + 10 * H);
[30, 32, 34, 46].forEach((h, i) => {
  add("live", "v2", `l2-b${i}`, "grounding_risk", [0.1, 0.1, 0.2, 0.2][i]!, T0 + h * H);
});
[45, 35, 25].forEach((m, i) => {
  add("live", "v2", `l2-r${i}`, "grounding_risk", [0.3, 0.3, 0.2][i]!, NOW - m * M);
});

// content_missing in the last hour (relevance rows, one per trace): svc-a 3 of 5, svc-b 1 of 5 (+1 two hours
// ago, outside), svc-c 2 of 2 (fewer than 4 traces); svc-w (the live traces above) 0 of 6
const cm = (service: string, n: number, missing: number, start: number) => {
  for (let i = 0; i < n; i++)
    add("live", "v2", `cm-${service}-${start}-${i}`, "relevance", i < missing ? null : 2, start + i * M, { status: i < missing ? "content_missing" : "ok", service });
};
cm("svc-a", 5, 3, NOW - 20 * M);
cm("svc-b", 5, 1, NOW - 20 * M);
cm("svc-b", 1, 1, NOW - 3 * H);
cm("svc-c", 2, 2, NOW - 20 * M);

// ingestion_stats: dead letters 2 + 1 in the last 15 min (5 before); lags: s1 50000 then 20000 (latest),
// s2 30000 then 500 (latest), s3 99999 half an hour ago (outside)
stats.push(
  { minute: NOW - 20 * M, scorer: "s1", lag: 10, dlq: 5 },
  { minute: NOW - 10 * M, scorer: "s1", lag: 0, dlq: 2 },
  { minute: NOW - 5 * M, scorer: "s2", lag: 0, dlq: 1 },
  { minute: NOW - 9 * M, scorer: "s1", lag: 50_000, dlq: 0 },
  { minute: NOW - 2 * M, scorer: "s1", lag: 20_000, dlq: 0 },
  { minute: NOW - 8 * M, scorer: "s2", lag: 30_000, dlq: 0 },
  { minute: NOW - 1 * M, scorer: "s2", lag: 500, dlq: 0 },
  { minute: NOW - 30 * M, scorer: "s3", lag: 99_999, dlq: 0 },
);

// ── writing: stale versions first (other values), then the real ones ──────────────────────────────
const ts = (ms: number): string => new Date(ms).toISOString().replace("T", " ").replace("Z", "");
const runId = (s: { source: string; pv: string }) => (s.source === "live" ? "live" : `${s.source}-${s.pv}`);

async function seed(store: Store): Promise<void> {
  const db = store.database;
  const ins = async (table: string, rows: Record<string, unknown>[]) => {
    if (rows.length > 0) await store.client.insert({ table: `${db}.${table}`, values: rows, format: "JSONEachRow" });
  };
  // ingestion_stats: the real rows first, so a read without FINAL meets the stale lag last
  for (const stale of [false, true]) {
    await ins(
      "ingestion_stats",
      stats.map((x) => ({
        minute: ts(x.minute).slice(0, 19),
        scorer_id: x.scorer,
        spans_received: 1,
        traces_scored: 1,
        consumer_lag: stale ? x.lag + 100_000 : x.lag,
        dlq_count: stale ? x.dlq + 1000 : x.dlq,
        version: stale ? 1 : 2,
      })),
    );
  }
  for (const stale of [true, false]) {
    const version = stale ? 1 : 2;
    await ins(
      "scores",
      scores.map((x) => ({
        run_id: runId(x),
        trace_id: x.trace,
        metric: x.metric,
        judge_prompt_version: x.kind === "mechanical" ? "" : "p",
        repeat_index: x.repeat,
        golden_id: "",
        // stale: the value mirrored, content_missing ↔ ok, tokens tripled
        value: stale ? (x.value === null ? 1 : x.metric === "relevance" ? 4 - x.value : 1 - x.value) : x.value,
        status: stale ? (x.status === "ok" ? (x.metric === "relevance" && x.source === "live" ? "content_missing" : "ok") : "ok") : x.status,
        reason: "",
        judge_kind: x.kind,
        judge_model: x.kind === "mechanical" ? "" : "m",
        pipeline_version: x.pv,
        source: x.source,
        created_at: ts(x.created),
        judge_input_tokens: stale ? x.tin * 3 + 1 : x.tin,
        judge_output_tokens: stale ? x.tout * 3 + 1 : x.tout,
        latency_ms: 0,
        version,
      })),
    );
    await ins(
      "interactions",
      interactions.map((i) => ({
        trace_id: i.trace,
        run_id: runId(i),
        golden_id: "",
        source: i.source,
        service_name: stale ? "svc-stale" : i.service,
        deployment_environment: "",
        pipeline_version: i.pv,
        question: "q",
        answer: "a",
        retrieved: [],
        ...UNMEASURED_INTERACTION,
        created_at: ts(i.created),
        version,
      })),
    );
  }
}

// ── the rules' settings as the alerting datasource sends them ─────────────────────────────────────
type Settings = Record<string, string>;
/** Every setting empty: the environment variables unset, so the SQL's defaults apply. */
const UNSET: Settings = Object.fromEntries(Object.values(ALERT_SETTINGS).map((x) => [x.setting, ""]));
const set = (over: Partial<Record<keyof typeof ALERT_SETTINGS, string>>): Settings => ({
  ...UNSET,
  ...Object.fromEntries(Object.entries(over).map(([k, v]) => [ALERT_SETTINGS[k as keyof typeof ALERT_SETTINGS].setting, v])),
});
/** The test's thresholds: small minimum counts so a small seed can fire. */
const TEST = set({ minQuestions: "3", contentMissingMinTraces: "4", judgeTokensPerHour: "5000" });

type Row = Record<string, unknown>;
/** Expected rows per rule with {@link TEST} (values by hand, see the seed's comments). */
const EXPECTED: Record<AlertId, Row[]> = {
  // golden v2 vs v1: 0.75 − 0.53125; replay v2 has 2 questions (< 3); live v2 0.59375 ≥ live v1 0.5; v1 vs v0 not scored in 24 h
  grounding_drop_version: [{ source: "golden", pipeline_version: "v2", previous_version: "v1", value: 0.21875 }],
  // a rise: golden v2 0.5 against v1 0.375; replay v2 fell (1/6 < 0.25); live v2 rose 0.025 only (≤ 0.05)
  grounding_risk_rise_version: [{ source: "golden", pipeline_version: "v2", previous_version: "v1", value: 0.125 }],
  // live v2 (0+4+4+3+3+2+2+3 + six ok 2s of the content_missing block)/14 = 33/14 vs v1 3 → 9/14;
  // replay v2 4 − 8/3; golden v2 only 0.25 (≤ 0.3)
  relevance_drop_version: [
    { source: "live", pipeline_version: "v2", previous_version: "v1", value: 3 - 33 / 14 },
    { source: "replay", pipeline_version: "v2", previous_version: "v1", value: 4 - 8 / 3 },
  ],
  // recall@5: golden v2 0.5 vs v1 1; replay has one version only
  recall_drop_version: [{ source: "golden", pipeline_version: "v2", previous_version: "v1", value: 0.5 }],
  // live v2: 0.875 − 1.25/3 (the T0+10h trace is outside the 25 h range); live v1 no drop; others have no last hour
  grounding_drop_window: [{ source: "live", pipeline_version: "v2", value: 0.875 - 1.25 / 3 }],
  // live v2: 0.8 / 3 − 0.15 (T0+10h outside the range); live v1 fell (0.1 against 0.3)
  grounding_risk_rise_window: [{ source: "live", pipeline_version: "v2", value: 0.8 / 3 - 0.15 }],
  // the last hour: 2, 2, 3 and the six ok 2s of the content_missing block → 19/9
  relevance_drop_window: [{ source: "live", pipeline_version: "v2", value: 3.5 - 19 / 9 }],
  recall_drop_window: [{ source: "replay", pipeline_version: "v2", value: 1 - 1 / 3 }],
  // svc-a 3/5; svc-b 1/5 = 0.2 (not above); svc-c 2 traces (< 4); svc-w 0/6
  content_missing_share: [{ source: "live", service: "svc-a", value: 0.6 }],
  // last hour, llm rows: 6 traces × (1000 + 100 + 500 + 50) = 9900 (mechanical 77777s and the T0+46h 50000 left out)
  judge_tokens_per_hour: [{ value: 9900 }],
  // 2 + 1 in the last 15 minutes
  dlq_count: [{ value: 3 }],
  // latest lag per scorer: s1 20000 (> 10000), s2 500
  consumer_lag: [{ scorer_id: "s1", value: 20000 }],
};

/** The expected rows of a rule (its entry in {@link EXPECTED}). */
function expected(id: AlertId): Row[] {
  const rows = EXPECTED[id];
  if (rows === undefined) throw new Error(`no expected rows for rule ${id}`);
  return rows;
}

/** ClickHouse JSON → comparable values: numeric strings (UInt64) to numbers, floats rounded. */
function normalise(rows: Row[]): Row[] {
  const n = (v: unknown): unknown => {
    if (typeof v === "string" && /^-?\d+(\.\d+)?$/u.test(v)) return Number(v);
    if (typeof v === "number") return Math.round(v * 1e9) / 1e9;
    return v;
  };
  return rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, n(v)])));
}

/** Grafana's condition: B = reduce(last) of A's `value` per row (alert instance), C = B > 0. */
function firing(rows: Row[]): Row[] {
  return rows.filter((r) => typeof r["value"] === "number" && (r["value"] as number) > 0);
}

// ── the test ────────────────────────────────────────────────────────────────────────────────────
let store: Store;
async function run(sql: string): Promise<Row[]> {
  const rs = await store.client.query({ query: sql, format: "JSONEachRow" });
  return normalise(await rs.json<Row>());
}
const specOf = (id: AlertId) => ALERTS.find((a) => a.id === id)!;
const sqlOf = (id: AlertId, settings: Settings) => expandAlertSql(specOf(id).sql, { now: NOW, range: specOf(id).range, settings });

describe("alert rule SQL on the ClickHouse engine", () => {
  beforeAll(async () => {
    const home = await mkdtemp(path.join(tmpdir(), "ragmeter-alerts-"));
    store = await openStore({ kind: "embedded", home, database: "ragmeter" });
    await seed(store);
    await store.client.command({ query: `USE ${store.database}` });
  });
  afterAll(async () => {
    await store?.close();
  });

  it("every rule has a checked query", () => {
    expect(ALERTS.map((a) => a.id).sort()).toEqual(Object.keys(ALERT_SQL).sort());
    expect(Object.keys(EXPECTED).sort()).toEqual(Object.keys(ALERT_SQL).sort());
  });

  for (const id of Object.keys(ALERT_SQL) as AlertId[]) {
    it(`${id}: the rows that breach, with the value computed by hand, and the condition fires on each`, async () => {
      const sql = sqlOf(id, TEST);
      expect(sql).not.toMatch(/\$|getSetting/u);
      const got = await run(sql);
      const want = normalise(expected(id));
      expect(got).toEqual(want);
      expect(want.length).toBeGreaterThan(0);
      expect(firing(got)).toEqual(got);
    });
  }

  it("a bound at the measured value does not fire (strictly above), one just below does", async () => {
    const cases: [AlertId, Partial<Record<keyof typeof ALERT_SETTINGS, string>>, number][] = [
      ["grounding_drop_version", { groundingDrop: "0.21875" }, 0],
      ["grounding_drop_version", { groundingDrop: "0.2" }, 1],
      ["grounding_risk_rise_version", { groundingRiskRise: "0.125" }, 0],
      ["grounding_risk_rise_version", { groundingRiskRise: "0.1" }, 1],
      ["grounding_risk_rise_version", { groundingRiskRise: "0.02" }, 2], // live v2's rise of 0.025 in too
      ["grounding_risk_rise_window", { groundingRiskRise: "0.12" }, 0], // 0.1167
      ["grounding_risk_rise_window", { groundingRiskRise: "0.11" }, 1],
      ["relevance_drop_version", { relevanceDrop: "0.65" }, 1], // live v2 (9/14) out, replay v2 (1.33) stays
      ["relevance_drop_version", { relevanceDrop: "0.2" }, 3], // golden v2 (0.25) in too
      ["recall_drop_window", { recallDrop: "0.7" }, 0],
      ["content_missing_share", { contentMissingShare: "0.19" }, 2], // svc-b's 0.2 in too
      ["content_missing_share", { contentMissingShare: "0.6" }, 0],
      ["judge_tokens_per_hour", { judgeTokensPerHour: "9900" }, 0],
      ["dlq_count", { dlqCount: "3" }, 0],
      ["dlq_count", { dlqCount: "2" }, 1],
      ["consumer_lag", { consumerLag: "499" }, 2],
      ["consumer_lag", { consumerLag: "20000" }, 0],
    ];
    for (const [id, over, n] of cases) {
      const rows = await run(sqlOf(id, { ...TEST, ...Object.fromEntries(Object.entries(over).map(([k, v]) => [ALERT_SETTINGS[k as keyof typeof ALERT_SETTINGS].setting, v])) }));
      expect(firing(rows), `${id} ${JSON.stringify(over)}`).toHaveLength(n);
    }
  });

  it("recall@k follows RAGMETER_ALERT_RECALL_K: with k = 3 nothing dropped", async () => {
    expect(await run(sqlOf("recall_drop_version", { ...TEST, [ALERT_SETTINGS.recallK.setting]: "3" }))).toEqual([]);
    expect(await run(sqlOf("recall_drop_version", { ...TEST, [ALERT_SETTINGS.recallK.setting]: "5" }))).toEqual(normalise(expected("recall_drop_version")));
  });

  it("with every variable unset the defaults apply: only the DLQ (bound 0) and the lag (10000) fire", async () => {
    const fired: Record<string, Row[]> = {};
    for (const id of Object.keys(ALERT_SQL) as AlertId[]) {
      const rows = firing(await run(sqlOf(id, UNSET)));
      if (rows.length > 0) fired[id] = rows;
    }
    expect(fired).toEqual({ dlq_count: [{ value: 3 }], consumer_lag: [{ scorer_id: "s1", value: 20000 }] });
  });

  it("a copy of each rule's SQL without FINAL gets other rows", async () => {
    const insensitive: string[] = [];
    for (const id of Object.keys(ALERT_SQL) as AlertId[]) {
      const sql = sqlOf(id, TEST).replace(/\bFINAL\b/gu, "");
      const got = await run(sql).catch(() => [{ error: true }]);
      if (JSON.stringify(got) === JSON.stringify(normalise(expected(id)))) insensitive.push(id);
    }
    expect(insensitive).toEqual([]);
  });
});
