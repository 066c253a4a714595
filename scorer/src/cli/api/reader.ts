import type { MetricValue } from "@ragmeter/core/domain/metricTable";
import type { PriceTable } from "@ragmeter/core/judges/session/cost";
import type { Store } from "@ragmeter/store/client";
import { getRun, listRuns, type RunRecord } from "@ragmeter/store/runs";
import { type Comparison, compareRuns } from "../../runs/compare.js";
import { type LiveCaches, type LiveSummary, liveCaches, loadLiveSummary } from "../../runs/live.js";
import { loadReportData, type ReportData } from "../../runs/reportData.js";
import { storedQuestionMetrics } from "../../runs/summary.js";

/** The query of a live summary (window in ms, ending now). */
interface LiveQuery {
  readonly windowMs: number;
  readonly service?: string;
  readonly pipelineVersion?: string;
}

/** Per-question drill-down of a run: golden id → metric → value and status. */
export type RunQuestions = Readonly<Record<string, Readonly<Record<string, MetricValue>>>>;

/**
 * What the read commands (`runs`, `live`, `compare`, `report`, `export`) read: the store itself, or
 * the read API of the process that owns the embedded store (design §3).
 */
export interface Reader {
  /** Store location as printed. */
  readonly location: string;
  runs(): Promise<RunRecord[]>;
  run(runId: string): Promise<RunRecord | null>;
  questions(runId: string): Promise<RunQuestions | null>;
  /** Paired comparison; stores it (`comparisons`). Null when a run id is unknown. */
  compare(a: string, b: string, o: { seed: number; resamples: number }): Promise<Comparison | null>;
  live(q: LiveQuery): Promise<LiveSummary>;
  report(o: { goldenSet?: string }): Promise<ReportData>;
}

/** A reader on an open store (it keeps what the live view reads between calls: `cache`). */
export function storeReader(store: Store, prices: PriceTable | null, now: () => number = Date.now, cache: LiveCaches = liveCaches()): Reader {
  return {
    location: store.location,
    runs: () => listRuns(store),
    run: (id) => getRun(store, id),
    async questions(id) {
      if (!(await getRun(store, id))) return null;
      const m = await storedQuestionMetrics(store, id);
      return Object.fromEntries([...m].sort(([a], [b]) => a.localeCompare(b)).map(([g, ms]) => [g, Object.fromEntries(ms)]));
    },
    async compare(a, b, o) {
      const [ra, rb] = await Promise.all([getRun(store, a), getRun(store, b)]);
      return ra && rb ? compareRuns(store, ra, rb, o) : null;
    },
    live: (q) => loadLiveSummary(store, { ...q, now: now(), prices, cache }),
    report: (o) => loadReportData(store, o.goldenSet !== undefined ? { goldenSet: o.goldenSet } : {}),
  };
}
