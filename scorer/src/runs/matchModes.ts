import { recallMetric } from "@ragmeter/core/domain/metrics/recall";
import type { QuestionResult } from "@ragmeter/core/domain/result";
import { type GoldenItem, MATCH_MODES, type MatchMode, matchMode, normalizeText } from "@ragmeter/golden";
import { expectedSources, type MetricLookup } from "./digest.js";

/** The items of one match mode in a run, and their recall. */
export interface ModeReport {
  /** Golden items in this mode. */
  readonly items: number;
  /** recall@k → mean over this mode's questions whose recall was measured (`ok`), null when none. */
  readonly recall: Readonly<Record<string, number | null>>;
  /** Questions of this mode whose recall was measured (the n of the means). */
  readonly n: number;
}

/**
 * How many items of the golden set used each match mode (issue 12) and recall@k by mode, over the
 * run's results (matched to items by golden id). Every mode is present, with 0 items when unused.
 */
export function matchModeReport(
  items: readonly GoldenItem[],
  results: readonly { readonly golden_id: string; readonly metrics: MetricLookup }[],
  ks: readonly number[],
): Record<MatchMode, ModeReport> {
  const modeOf = new Map(items.map((it) => [it.id, matchMode(it)] as const));
  const out = {} as Record<MatchMode, ModeReport>;
  for (const mode of MATCH_MODES) {
    const names = ks.map((k) => recallMetric(k).name);
    // recall is measured for all of a question's ks or none
    const measured = results.filter((q) => modeOf.get(q.golden_id) === mode && names.every((n) => q.metrics.get(n)?.status === "ok"));
    const recall: Record<string, number | null> = {};
    for (const n of names) recall[n] = measured.length === 0 ? null : measured.reduce((s, q) => s + (q.metrics.get(n)?.value ?? 0), 0) / measured.length;
    out[mode] = { items: items.filter((it) => modeOf.get(it.id) === mode).length, recall, n: measured.length };
  }
  return out;
}

/**
 * The warning of the easiest adapter mistake (issue 12): contexts without a document id carry their
 * chunk id as document id, and then no retrieved item of the whole run matches any expected source.
 * Counts the distinct expected sources of the items matched by document (modes `document`,
 * `substring`, `lines`) and the retrieved items of the run; null when some retrieved item's
 * document id is one of those sources, or when there is nothing to compare.
 */
export function documentIdWarning(items: readonly GoldenItem[], results: readonly Pick<QuestionResult, "contexts">[]): string | null {
  const sources = expectedSources(items);
  let retrieved = 0;
  for (const q of results) {
    for (const c of q.contexts) {
      retrieved++;
      if (sources.has(normalizeText(c.document_id))) return null;
    }
  }
  return documentIdWarningOf(sources.size, retrieved, false);
}

/**
 * {@link documentIdWarning} from counts: `sources` expected sources, `retrieved` items in the run,
 * `hit` when some retrieved item's document id is one of the sources.
 */
export function documentIdWarningOf(sources: number, retrieved: number, hit: boolean): string | null {
  if (hit || sources === 0 || retrieved === 0) return null;
  return `none of ${sources} expected sources among ${retrieved} retrieved items; do contexts carry document_id? (without one, the chunk id is used as document id)`;
}

/**
 * The warning of a target that caps its contexts below the largest k (found as a new user: a service
 * returning its default top 3 while the run measured recall@5 and recall@10, the CI gate's recall@5
 * silently equal to recall@3). `retrieved`: the contexts of each question. A cap: the most any answer
 * had is below the largest k and at least half of the answers with contexts had exactly that many (a
 * retriever that returns only what matches, a few here and there, is no cap). Null otherwise.
 */
export function fewContextsWarning(ks: readonly number[], retrieved: readonly number[]): string | null {
  const answered = retrieved.filter((n) => n > 0);
  const most = answered.reduce((m, n) => Math.max(m, n), 0);
  const above = ks.filter((k) => k > most);
  const atMost = answered.filter((n) => n === most).length;
  if (most === 0 || above.length === 0 || 2 * atMost < answered.length) return null;
  return `the target returned at most ${most} context${most === 1 ? "" : "s"} per question (exactly ${most} in ${atMost} of ${answered.length} answers, as if capped): recall@k, precision@k and ndcg@k for k = ${above.join(", ")} see only those; have it return ${Math.max(...above)} (a target config can send "top_k": "{{k}}", the largest --k)`;
}
