import type { PriceTable } from "@ragmeter/core/judges/session/cost";
import type { GoldenSet } from "@ragmeter/golden";
import { RagmeterError } from "@ragmeter/runtime";
import { z } from "zod";

/**
 * What a run is (issue 36): where its answers come from, what it records them against, and how it
 * judges them. Built and validated once per run ({@link runSpec}); the recorder ({@link openRun}),
 * eval, `--via-traces` and replay read it and decide nothing of it again.
 */
const goldenSource = z.object({
  kind: z.literal("golden"),
  /** The golden set asked (validated when loaded); saved with the run. */
  set: z.custom<GoldenSet>((v) => typeof v === "object" && v !== null && "sha256" in v && "items" in v, "expected a loaded golden set"),
  /** Answers from the target's own spans (`eval --via-traces`) rather than its reply. */
  viaTraces: z.boolean().default(false),
});

const replaySource = z.object({
  kind: z.literal("replay"),
  /** The `--from` text (a run id or filters), recorded on the run. */
  from: z.string().min(1, "must not be empty"),
});

const ascendingUnique = (ks: readonly number[]): boolean => ks.every((k, i) => i === 0 || k > (ks[i - 1] as number));

const runSpecSchema = z
  .object({
    source: z.discriminatedUnion("kind", [goldenSource, replaySource]),
    /** What answers (the target's description), as recorded on the run. */
    target: z.string().min(1, "must not be empty"),
    pipelineVersion: z.string().min(1, "must not be empty"),
    /** k values of recall@k. */
    ks: z.array(z.number().int("must be integers").min(1, "must be integers ≥ 1")).min(1, "must name at least one k").refine(ascendingUnique, "must be ascending and distinct"),
    /** Runs of each judge per question. */
    repeat: z.number().int("must be an integer").min(1, "must be ≥ 1").default(1),
    /** The judge cache is asked for (`--no-cache` sets false); see {@link RunSpec.useCache}. */
    cache: z.boolean().default(true),
    /** Stop judging once the run's estimated judge cost reaches this (USD). */
    maxCostUsd: z.number().min(0, "must be ≥ 0").nullable().default(null),
    /** Price table for the cost estimate. */
    prices: z
      .custom<PriceTable>((v) => typeof v === "object" && v !== null, "expected a price table")
      .nullable()
      .default(null),
  })
  .superRefine((s, ctx) => {
    if (s.source.kind === "golden" && s.source.viaTraces && s.repeat > 1) ctx.addIssue({ code: "custom", path: ["repeat"], message: "is not available with --via-traces" });
    if (s.source.kind === "replay" && s.repeat > 1) ctx.addIssue({ code: "custom", path: ["repeat"], message: "is not available with replay" });
  })
  .transform((s) => ({
    ...s,
    /** The judge cache is used: asked for and each judge runs once (repeats must not read their first answer back). */
    useCache: s.cache && s.repeat === 1,
  }));

/** A validated run specification. */
export type RunSpec = z.output<typeof runSpecSchema>;
/** What {@link runSpec} is given (defaults: repeat 1, cache on, no cost cap, no prices). */
export type RunSpecInput = z.input<typeof runSpecSchema>;

/** Where each field of a run specification came from, for the one-line error (a flag or a setting). */
export type SpecOrigins = Readonly<Record<string, string>>;

/** The flags and settings of `eval`, `demo` and `replay` the fields come from. */
const CLI_ORIGINS: SpecOrigins = {
  target: "--target",
  pipelineVersion: "--pipeline-version",
  ks: "--k",
  repeat: "--repeat",
  cache: "--no-cache",
  maxCostUsd: "--max-cost",
  prices: "RAGMETER_PRICES",
  source: "--golden",
  "source.from": "--from",
};

/** A run specification that does not hold (exit 2): its message names the field's flag or setting. */
export class RunSpecError extends RagmeterError {
  override readonly name = "RunSpecError";
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, { code: "usage", cause: options?.cause });
  }
}

/**
 * Validates a run specification once (defaults filled, `useCache` derived).
 * @throws RunSpecError, one line: the first bad field's flag or setting (from `origins`) and what is wrong.
 */
export function runSpec(input: RunSpecInput, origins: SpecOrigins = CLI_ORIGINS): RunSpec {
  const r = runSpecSchema.safeParse(input);
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  const path = (issue?.path ?? []).map(String);
  const field = path.join(".");
  const origin = origins[field] ?? origins[path[0] ?? ""] ?? (field || "run");
  throw new RunSpecError(`${origin} ${issue?.message ?? "is not valid"}`);
}

/** What the run's row records of its answers' origin: its source, the golden set's (or selection's) hash and path, and the target. */
export interface RunIdentity {
  readonly source: "golden" | "replay";
  readonly goldenSetHash: string;
  readonly goldenSetPath: string;
  readonly target: string;
}

/**
 * The run's identity: a golden run is filed under its golden set (the target marked `(via traces)`
 * when the answers come from spans); a replay under the hash of its `selectionHash` (the replayed
 * trace ids) and its `--from`.
 */
export function runIdentity(spec: RunSpec, selectionHash: string | null): RunIdentity {
  const s = spec.source;
  if (s.kind === "golden") return { source: "golden", goldenSetHash: s.set.sha256, goldenSetPath: s.set.path, target: s.viaTraces ? `${spec.target} (via traces)` : spec.target };
  return { source: "replay", goldenSetHash: `replay-${selectionHash ?? ""}`, goldenSetPath: `replay --from ${s.from}`, target: spec.target };
}
