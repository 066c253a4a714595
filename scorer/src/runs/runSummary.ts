import type { RunRecord } from "@ragmeter/store/runs";
import { z } from "zod";

const count = z.number().int().min(0);
const mean = z.number().nullable();

/** What the judges did in the run (design §5): usage, cost, length bias, repeat variance, calibration. */
const judgeSummarySchema = z.object({
  calls: count,
  cached: count,
  not_sampled: count,
  /** Judge calls not made, by the status the judged metric got instead (runs before 2026-12-02 lack it). */
  skipped: z.record(z.string(), count).optional(),
  input_tokens: count,
  output_tokens: count,
  cost_usd: z.number().nullable(),
  max_cost_usd: z.number().nullable(),
  repeat: z.number().int().min(1),
  cache: z.boolean(),
  length_bias: z.array(z.object({ metric: z.string(), spearman: mean, n: count })).readonly(),
  variance: z.array(z.object({ metric: z.string(), repeats: count, mean, sd: mean, flipped: mean, n: count })).readonly(),
  calibration_id: z.string().nullable(),
});

/**
 * The summary a completed (or failed) run stores in `runs.summary`, in the order it is written.
 * The one schema of both ways: {@link storeRunSummary} writes through it, {@link readRunSummary}
 * reads through it. Fields later versions added are optional, so an earlier version's history reads.
 */
const runSummarySchema = z.object({
  /** Mean of the `ok` values per metric, null when none. */
  metrics: z.record(z.string(), mean),
  /** `ok` values per metric (the n of the mean). */
  n: z.record(z.string(), count),
  /** metric → status → questions. */
  counts: z.record(z.string(), z.record(z.string(), count)),
  questions: count,
  target_errors: count,
  failed_questions: count.optional(),
  /** Items and recall@k by match mode (golden runs). */
  match_modes: z.record(z.string(), z.object({ items: count, recall: z.record(z.string(), mean), n: count })).optional(),
  judge: judgeSummarySchema.optional(),
});

/** A run's stored summary. */
type RunSummary = z.output<typeof runSummarySchema>;

/** The summary of a run whose process died while it ran (written by the store when it is opened: `abortRunningRuns`). */
const abortedSummarySchema = z.object({ aborted_reason: z.string() });

/** The summary text of a run being completed. @throws ZodError when `summary` does not hold (a bug of the writer). */
export function storeRunSummary(summary: z.input<typeof runSummarySchema>): string {
  return JSON.stringify(runSummarySchema.parse(summary));
}

/** What a stored run's summary says, read once through its schema. */
export type StoredSummary =
  /** A completed or failed run's figures. */
  | { readonly state: "summary"; readonly summary: RunSummary }
  /** A run still running: no summary yet (`{}`). */
  | { readonly state: "running" }
  | { readonly state: "aborted"; readonly reason: string }
  /** The stored text is not a summary of the run's status: why, one line. */
  | { readonly state: "unreadable"; readonly reason: string };

/** The first issue of a failed parse as `path: message`. */
function issueLine(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return "not a summary";
  return issue.path.length > 0 ? `${issue.path.join(".")}: ${issue.message}` : issue.message;
}

/** Reads a stored run's summary by its status (never a silent empty summary: an unreadable one says why). */
export function readRunSummary(run: Pick<RunRecord, "status" | "summary">): StoredSummary {
  let json: unknown;
  try {
    json = JSON.parse(run.summary);
  } catch (err) {
    return { state: "unreadable", reason: `summary is not JSON (${(err as Error).message})` };
  }
  if (run.status === "running") return { state: "running" };
  if (run.status === "aborted") {
    const a = abortedSummarySchema.safeParse(json);
    return a.success ? { state: "aborted", reason: a.data.aborted_reason } : { state: "unreadable", reason: `aborted run's summary: ${issueLine(a.error)}` };
  }
  const s = runSummarySchema.safeParse(json);
  return s.success ? { state: "summary", summary: s.data } : { state: "unreadable", reason: `summary ${issueLine(s.error)}` };
}
