import { displayRank, metricNames } from "../domain/metricTable.js";
import type { Store } from "../store/client.js";
import { claimCountsByRun, goldenQuestionsOfRun, goldenTags, latestComparison, recentBadClaims, retrievedOfRun } from "../store/report.js";
import { listRuns, previousRun, type RunRecord } from "../store/runs.js";
import { BOOTSTRAP_RESAMPLES, DEFAULT_SEED } from "./bootstrap.js";
import { pairedDelta } from "./paired.js";
import { storedQuestionMetrics } from "./summary.js";

/** Mean of the `ok` per-question values of one metric in one run, with how many questions. */
interface MetricMean {
  readonly mean: number | null;
  readonly n: number;
}

/** One completed run in the trend. */
export interface ReportRun {
  readonly run_id: string;
  /** ISO-8601 UTC. */
  readonly started_at: string;
  readonly pipeline_version: string;
  readonly source: string;
  readonly golden_set_hash: string;
  /** metric (`recall@k`, `mrr`, `grounding`, `relevance`, `key_facts`, `abstention`) → mean of ok values. */
  readonly metrics: Readonly<Record<string, MetricMean>>;
  /** Claims by verdict (SUPPORTED, UNSUPPORTED, CONTRADICTED). */
  readonly claims: Readonly<Record<string, number>>;
}

/** A row of the last-vs-previous table. */
interface ReportDelta {
  readonly metric: string;
  readonly n: number;
  readonly previous: number | null;
  readonly last: number | null;
  readonly delta: number | null;
  readonly ci: readonly [number, number] | null;
}

/** Everything the HTML report shows (Overview, Retrieval and Grounding dashboards). */
export interface ReportData {
  /** ISO-8601 UTC. */
  readonly generated_at: string;
  /** Store location, for the footer. */
  readonly location: string;
  /** Completed runs, oldest first (at most `maxRuns`). */
  readonly runs: readonly ReportRun[];
  /** k values present in the runs, ascending. */
  readonly ks: readonly number[];
  /** The recall@k of the headline trend. */
  readonly headline_k: number;
  /** Last run vs its previous comparable run (design §5), or why there is none. */
  readonly comparison:
    | {
        readonly last: ReportRunRef;
        readonly previous: ReportRunRef;
        readonly origin: "stored" | "computed";
        readonly seed: number;
        readonly resamples: number;
        readonly deltas: readonly ReportDelta[];
      }
    | { readonly last: ReportRunRef | null; readonly previous: null; readonly why: string };
  /**
   * Questions whose recall@headline_k went from 1 (previous run) to 0 (last run): the hit rank in
   * each (from the stored reciprocal rank; null: no hit at all) and what the last run retrieved instead.
   */
  readonly lost_hit: readonly {
    readonly golden_id: string;
    readonly question: string;
    readonly trace_id: string;
    readonly rank_previous: number | null;
    readonly rank_last: number | null;
    readonly retrieved_last: readonly { readonly id: string; readonly document_id: string }[];
  }[];
  /** The last run by tag: metric → mean of ok values, with n. */
  readonly by_tag: Readonly<Record<string, Readonly<Record<string, MetricMean>>>>;
  /** Most recent UNSUPPORTED and CONTRADICTED claims, newest first. */
  readonly bad_claims: readonly {
    readonly time: string;
    readonly verdict: string;
    readonly claim: string;
    readonly question: string;
    readonly pipeline_version: string;
    readonly trace_id: string;
    readonly golden_id: string;
  }[];
}

/** A run named in the comparison. */
interface ReportRunRef {
  readonly run_id: string;
  readonly pipeline_version: string;
  readonly started_at: string;
}

/** Options of {@link loadReportData}. */
export interface ReportOptions {
  /** Most recent completed runs in the trend (default 50). */
  readonly maxRuns?: number;
  /** Recent bad claims listed (default 30). */
  readonly maxClaims?: number;
  /** Clock (tests). */
  readonly now?: () => number;
  /**
   * Golden set of the report (a SHA-256 or a prefix of it). Default: the golden set of the latest
   * completed golden run; trends only make sense over one golden set and one source.
   */
  readonly goldenSet?: string;
}

const ref = (r: RunRecord): ReportRunRef => ({ run_id: r.run_id, pipeline_version: r.pipeline_version, started_at: r.started_at });

/**
 * Reads the report's content from the store (every table read with FINAL): per-run metric means of
 * the completed runs, claims by verdict, the last run against its previous comparable run (the
 * latest stored comparison of that pair, else a paired comparison computed here and not stored),
 * the questions that lost their hit and the most recent UNSUPPORTED/CONTRADICTED claims.
 * @throws the client's error when the store cannot be read.
 */
export async function loadReportData(store: Store, options: ReportOptions = {}): Promise<ReportData> {
  const all = (await listRuns(store)).filter((r) => r.status === "completed");
  const goldenSet = options.goldenSet ?? all.find((r) => r.source === "golden")?.golden_set_hash ?? all[0]?.golden_set_hash ?? "";
  const completed = all
    .filter((r) => r.golden_set_hash.startsWith(goldenSet) && (options.goldenSet !== undefined || r.source === "golden" || all.every((x) => x.source !== "golden")))
    .slice(0, options.maxRuns ?? 50)
    .reverse();
  const perQuestion = new Map<string, Awaited<ReturnType<typeof storedQuestionMetrics>>>();
  for (const r of completed) perQuestion.set(r.run_id, await storedQuestionMetrics(store, r.run_id));

  const claimCounts = new Map<string, Record<string, number>>();
  if (completed.length > 0) {
    for (const row of await claimCountsByRun(
      store,
      completed.map((r) => r.run_id),
    ))
      claimCounts.set(row.run_id, { ...(claimCounts.get(row.run_id) ?? {}), [row.verdict]: row.n });
  }

  const ks = [...new Set(completed.flatMap((r) => r.ks))].sort((a, b) => a - b);
  const runs: ReportRun[] = completed.map((r) => {
    const byMetric = new Map<string, number[]>();
    for (const m of perQuestion.get(r.run_id)?.values() ?? []) {
      for (const [metric, v] of m) if (v.status === "ok" && v.value !== null) byMetric.set(metric, [...(byMetric.get(metric) ?? []), v.value]);
    }
    const metrics: Record<string, MetricMean> = {};
    for (const [metric, vs] of byMetric) metrics[metric] = { mean: vs.reduce((a, b) => a + b, 0) / vs.length, n: vs.length };
    return {
      run_id: r.run_id,
      started_at: r.started_at,
      pipeline_version: r.pipeline_version,
      source: r.source,
      golden_set_hash: r.golden_set_hash,
      metrics,
      claims: claimCounts.get(r.run_id) ?? {},
    };
  });
  const headline_k = ks.includes(5) ? 5 : (ks[ks.length - 1] ?? 5);

  const last = completed[completed.length - 1];
  let comparison: ReportData["comparison"];
  let lost_hit: ReportData["lost_hit"] = [];
  const prev = last ? await previousRun(store, last) : null;
  if (!last) comparison = { last: null, previous: null, why: "no completed run in the store" };
  else if (!prev) comparison = { last: ref(last), previous: null, why: "no earlier completed run on the same golden set with the same judge kind, model and prompt version" };
  else {
    const rows = await latestComparison(store, prev.run_id, last.run_id);
    // The report's own comparison leaves out reference_facts (stored ones may have it: ranked after recall@k, as before).
    const reportNames = new Set(metricNames([...last.ks], false));
    const order = (m: string) => displayRank(m) + (reportNames.has(m) ? 0 : 1);
    if (rows.length > 0) {
      comparison = {
        last: ref(last),
        previous: ref(prev),
        origin: "stored",
        seed: rows[0]!.seed,
        resamples: rows[0]!.resamples,
        deltas: rows
          .map((r) => ({
            metric: r.metric,
            n: r.n,
            previous: r.mean_a,
            last: r.mean_b,
            delta: r.delta,
            ci: r.ci_lower !== null && r.ci_upper !== null ? ([r.ci_lower, r.ci_upper] as const) : null,
          }))
          .sort((x, y) => order(x.metric) - order(y.metric)),
      };
    } else {
      const a = perQuestion.get(prev.run_id) ?? (await storedQuestionMetrics(store, prev.run_id));
      const b = perQuestion.get(last.run_id)!;
      const names = metricNames(
        [...new Set([...prev.ks, ...last.ks])].sort((x, y) => x - y),
        false,
      );
      comparison = {
        last: ref(last),
        previous: ref(prev),
        origin: "computed",
        seed: DEFAULT_SEED,
        resamples: BOOTSTRAP_RESAMPLES,
        deltas: names.map((m) => {
          const d = pairedDelta(m, a, b, { seed: DEFAULT_SEED, resamples: BOOTSTRAP_RESAMPLES });
          return { metric: m, n: d.n, previous: d.mean_a, last: d.mean_b, delta: d.delta, ci: d.interval ? ([d.interval.lower, d.interval.upper] as const) : null };
        }),
      };
    }
    const a = perQuestion.get(prev.run_id) ?? (await storedQuestionMetrics(store, prev.run_id));
    const b = perQuestion.get(last.run_id)!;
    const lost = [...b.entries()]
      .filter(([id, m]) => m.get(`recall@${headline_k}`)?.value === 0 && a.get(id)?.get(`recall@${headline_k}`)?.value === 1)
      .map(([id]) => id)
      .sort();
    if (lost.length > 0) {
      const retrieved = await retrievedOfRun(store, last.run_id, lost);
      // The stored reciprocal rank gives the hit rank back (1/rr), or no hit (0).
      const rank = (m: ReadonlyMap<string, { value: number | null }> | undefined): number | null => {
        const rr = m?.get("mrr")?.value ?? null;
        return rr === null || rr <= 0 ? null : Math.round(1 / rr);
      };
      lost_hit = (await goldenQuestionsOfRun(store, last.golden_set_hash, last.run_id, lost)).map((q) => ({
        ...q,
        rank_previous: rank(a.get(q.golden_id)),
        rank_last: rank(b.get(q.golden_id)),
        retrieved_last: (retrieved.get(q.golden_id) ?? []).slice(0, headline_k),
      }));
    }
  }

  const by_tag: Record<string, Record<string, MetricMean>> = {};
  if (last) {
    const tags = await goldenTags(store, last.golden_set_hash);
    const values = new Map<string, Map<string, number[]>>();
    for (const [id, m] of perQuestion.get(last.run_id) ?? []) {
      for (const tag of tags.get(id) ?? []) {
        let t = values.get(tag);
        if (!t) {
          t = new Map();
          values.set(tag, t);
        }
        for (const [metric, v] of m) if (v.status === "ok" && v.value !== null) t.set(metric, [...(t.get(metric) ?? []), v.value]);
      }
    }
    for (const [tag, t] of [...values].sort((x, y) => x[0].localeCompare(y[0]))) {
      by_tag[tag] = Object.fromEntries([...t].map(([metric, vs]) => [metric, { mean: vs.reduce((x, y) => x + y, 0) / vs.length, n: vs.length }]));
    }
  }

  const bad_claims = await recentBadClaims(store, options.maxClaims ?? 30);

  return { generated_at: new Date((options.now ?? Date.now)()).toISOString(), location: store.location, runs, ks, headline_k, comparison, lost_hit, by_tag, bad_claims };
}
