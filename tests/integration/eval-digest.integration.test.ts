import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseGoldenSet } from "@ragmeter/golden";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JUDGED_METRICS } from "../../core/src/domain/metricTable.js";
import { outcomeOf } from "../../core/src/domain/result.js";
import { lengthBias } from "../../core/src/judges/analysis.js";
import { createHeuristicJudge } from "../../core/src/judges/heuristic/heuristicJudge.js";
import { judgeErrorReasons } from "../../scorer/src/cli/format/text.js";
import { aggregate } from "../../scorer/src/runs/aggregate.js";
import { runEval } from "../../scorer/src/runs/eval.js";
import { documentIdWarning, matchModeReport } from "../../scorer/src/runs/matchModes.js";
import { runSpec } from "../../scorer/src/runs/spec.js";
import { type EvalOutcome, questionFailures, runMetricNames, runMetricValues } from "../../scorer/src/runs/summary.js";
import { httpTarget, type Target } from "../../scorer/src/runs/target.js";
import { openStore, type Store } from "../../store/src/client.js";
import { runScores } from "../../store/src/results.js";
import { getRun } from "../../store/src/runs.js";
import { startSampleServeChild } from "../helpers/sampleServe.js";

// Issue 12 (speed): a run without --json keeps only a digest per question. Its summary must be the
// one computed from the full results, and the one computed independently from the stored rows.

const ks = [1, 3, 5];
let sample: Awaited<ReturnType<typeof startSampleServeChild>>;
let golden: Awaited<ReturnType<typeof parseGoldenSet>>;
const stores: Store[] = [];

/** The sample target, except that questions marked `#fail` fail: target errors are part of the summary. */
function flakyTarget(inner: Target): Target {
  return {
    description: inner.description,
    ask: async (question, headers, request) => {
      if (question.includes("#fail")) return { ok: false, reason: "HTTP 500 (test)", latency_ms: 1 };
      return inner.ask(question, headers, request);
    },
  };
}

async function store(): Promise<Store> {
  const home = await mkdtemp(path.join(tmpdir(), "ragmeter-digest-"));
  const s = await openStore({ kind: "embedded", home, database: "ragmeter" });
  stores.push(s);
  return s;
}

beforeAll(async () => {
  sample = await startSampleServeChild({ OTEL_TRACES_EXPORTER: "none" });
  const base = (await readFile(path.resolve(import.meta.dirname, "../../examples/sample-rag/golden.jsonl"), "utf8"))
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as { id: string; question: string; tags?: string[] });
  // Three copies of the sample set, each with its own ids and a tag per copy; every 7th question fails at the target.
  const lines: string[] = [];
  for (let copy = 0; copy < 3; copy++)
    base.forEach((it, i) => {
      const n = copy * base.length + i;
      lines.push(JSON.stringify({ ...it, id: `${it.id}-${copy}`, question: n % 7 === 3 ? `${it.question} #fail` : it.question, tags: [...(it.tags ?? []), `copy${copy}`] }));
    });
  golden = await parseGoldenSet(lines.join("\n"), "digest.jsonl");
}, 60_000);

afterAll(async () => {
  for (const s of stores) await s.close();
  await sample?.stop();
});

function byName(rows: readonly { metric: string; value: number | null; status: string }[]): Map<string, { sum: number; n: number; counts: Record<string, number> }> {
  const out = new Map<string, { sum: number; n: number; counts: Record<string, number> }>();
  for (const r of rows) {
    const a = out.get(r.metric) ?? { sum: 0, n: 0, counts: {} };
    a.counts[r.status] = (a.counts[r.status] ?? 0) + 1;
    if (r.status === "ok" && r.value !== null) {
      a.sum += r.value;
      a.n++;
    }
    out.set(r.metric, a);
  }
  return out;
}

describe("eval without --json: the summary from per-question digests", () => {
  let lean: EvalOutcome;
  let full: EvalOutcome;
  let leanStore: Store;

  beforeAll(async () => {
    const target = flakyTarget(httpTarget(sample.url, 10_000));
    // One store (chdb binds one data directory per process): the second run is paired with the first.
    leanStore = await store();
    const spec = runSpec({ source: { kind: "golden", set: golden }, target: target.description, pipelineVersion: "sample-v1", ks });
    lean = await runEval({ spec, target, concurrency: 4, judge: createHeuristicJudge(), store: leanStore, keepResults: false });
    full = await runEval({ spec, target, concurrency: 4, judge: createHeuristicJudge(), store: leanStore });
  }, 120_000);

  it("keeps no full result, and one digest per question in golden order", () => {
    expect(lean.results).toBeNull();
    expect(lean.questions.map((q) => q.golden_id)).toEqual(golden.items.map((it) => it.id));
    expect(full.results?.map((q) => q.golden_id)).toEqual(golden.items.map((it) => it.id));
    expect(lean.questions.filter((q) => q.status === "target_error")).toHaveLength(golden.items.filter((_, n) => n % 7 === 3).length);
  });

  it("equals the summary computed from the full results (the pre-digest computation)", () => {
    const results = full.results ?? [];
    const names = runMetricNames(ks, createHeuristicJudge());
    const rows = results.map((q) => runMetricValues(q, ks));
    expect(lean.aggregate).toEqual(aggregate(rows, names));
    expect(lean.aggregate).toEqual(full.aggregate);
    const tags = [...new Set(results.flatMap((q) => q.tags))].sort();
    expect(Object.keys(lean.byTag)).toEqual(tags);
    for (const tag of tags)
      expect(lean.byTag[tag]).toEqual(
        aggregate(
          results.filter((q) => q.tags.includes(tag)).map((q) => runMetricValues(q, ks)),
          names,
        ),
      );
    expect(lean.failures).toEqual(questionFailures(results));
    expect(lean.errorRate).toBe(questionFailures(results).length / results.length);
    expect(lean.byMode).toEqual(
      matchModeReport(
        golden.items,
        results.map((q) => ({ golden_id: q.golden_id, metrics: runMetricValues(q, ks) })),
        ks,
      ),
    );
    expect(lean.warnings).toEqual(full.warnings);
    expect(full.warnings.some((w) => w === documentIdWarning(golden.items, results))).toBe(documentIdWarning(golden.items, results) !== null);
    expect(lean.judgeReport.length_bias).toEqual(
      JUDGED_METRICS.map((m) =>
        lengthBias(
          m.name,
          results.map((q) => ({ answer: q.answer, score: outcomeOf(q, m.name) })),
        ),
      ).filter((b) => b.n > 0),
    );
    expect(lean.judgeReport.length_bias.length).toBeGreaterThan(0);
    expect(judgeErrorReasons(lean)).toEqual(judgeErrorReasons(full));
    // The stored summaries differ only in what identifies the run.
    const strip = (s: string) => JSON.parse(s) as unknown;
    expect(strip(lean.run.summary)).toEqual(strip(full.run.summary));
  });

  it("equals the means and counts computed independently from the score rows in the store", async () => {
    const stored = byName(await runScores(leanStore, lean.run.run_id));
    for (const name of runMetricNames(ks, createHeuristicJudge())) {
      const s = stored.get(name);
      expect(s, name).toBeDefined();
      expect(lean.aggregate.counts[name], name).toEqual(s?.counts);
      expect(lean.aggregate.n[name], name).toBe(s?.n);
      const mean = s && s.n > 0 ? s.sum / s.n : null;
      if (mean === null) expect(lean.aggregate.metrics[name], name).toBeNull();
      else expect(lean.aggregate.metrics[name], name).toBeCloseTo(mean, 12);
    }
    // Some of every kind: ok values, target errors, not_applicable (unanswerable items).
    expect(lean.aggregate.counts["recall@1"]?.["target_error"]).toBeGreaterThan(0);
    expect(lean.aggregate.n["grounding"]).toBeGreaterThan(0);
    const run = await getRun(leanStore, lean.run.run_id);
    expect(JSON.parse(run?.summary ?? "{}")).toMatchObject({ questions: golden.items.length, metrics: lean.aggregate.metrics });
  });
});
