import { spawnSync } from "node:child_process";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createSamplePipeline, SAMPLE_GOLDEN_FILE } from "../../examples/sample-rag/src/index.js";
import { loadGoldenSet } from "../../golden/src/index.js";

const root = path.resolve(import.meta.dirname, "../..");
const demo = (home: string) => {
  const t0 = performance.now();
  const r = spawnSync("npm", ["run", "--silent", "demo", "--", "--home", home], {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, CI: "true", OPENAI_BASE_URL: "", RAGMETER_HOME: "" },
  });
  return { ...r, seconds: (performance.now() - t0) / 1000 };
};
const metricLines = (section: string) => section.split("\n").filter((l) => /^(recall@\d+|MRR|grounding|relevance|key facts|abstention) /u.test(l));

describe("npm run demo (bundled sample, heuristic judges, embedded store)", () => {
  it("prints both summaries with these exact figures, deterministically, and keeps the history", async () => {
    const home = await mkdtemp(path.join(tmpdir(), "ragmeter-demo-"));
    const first = demo(home);
    expect(first.status, first.stderr).toBe(0);
    const [, v1, v2] = first.stdout.split(/^=== sample pipeline /mu) as [string, string, string];
    expect(metricLines(v1)).toEqual([
      "recall@1     0.56  (n=112)",
      "recall@3     0.75  (n=112)",
      "recall@5     0.81  (n=112)",
      "recall@10    0.88  (n=112)",
      "MRR          0.67  (n=112)",
      "grounding    1.00  (n=99)",
      "relevance    3.2/4 (n=121)",
      "key facts    0.32  (n=112)",
      "abstention   0.44  (n=9)",
    ]);
    expect(metricLines(v2)).toEqual([
      "recall@1     0.29  (was 0.56, -0.27, n=112)",
      "recall@3     0.46  (was 0.75, -0.29, n=112)",
      "recall@5     0.56  (was 0.81, -0.25, n=112)",
      "recall@10    0.59  (was 0.88, -0.29, n=112)",
      "MRR          0.39  (was 0.67, -0.27, n=112)",
      "grounding    0.77  (was 1.00, -0.22, n=92)",
      "relevance    3.1/4 (was 3.2/4, -0.1, n=121)",
      "key facts    0.19  (was 0.32, -0.13, n=112)",
      "abstention   0.67  (was 0.44, +0.22, n=9)",
    ]);
    expect(v1).toContain("no comparable run");
    expect(v2).toMatch(/^moved most \(vs previous run; \d+ question-metric pairs got worse, \d+ better\)$/mu);
    expect(v2).toMatch(/^ {2}worse {2}q\d{3} /mu);
    expect(v2).toMatch(/^counts by status$/mu);
    expect(v2).toContain(`history: ${path.join(home, "store")} (embedded ClickHouse)`);
    expect(first.seconds).toBeLessThan(60);

    // Running it again compares v1 with the earlier v2 run: history persists; the figures repeat.
    const second = demo(home);
    expect(second.status, second.stderr).toBe(0);
    const [, v1again, v2again] = second.stdout.split(/^=== sample pipeline /mu) as [string, string, string];
    expect(v1again).toMatch(/^compared with run r-\S+ \(pipeline sample-v2\)/mu);
    expect(metricLines(v1again)[0]).toBe("recall@1     0.56  (was 0.29, +0.27, n=112)");
    expect(metricLines(v2again)).toEqual(metricLines(v2));
    const runs = spawnSync(process.execPath, [path.join(root, "scorer/bin/ragmeter.js"), "runs", "--json", "--home", home], { encoding: "utf8" });
    const list = JSON.parse(runs.stdout) as { pipeline_version: string; metrics: Record<string, number> }[];
    expect(list.map((r) => r.pipeline_version)).toEqual(["sample-v2", "sample-v1", "sample-v2", "sample-v1"]);

    // Independent check of recall@5 for v1: a plain loop over the pipeline's own replies.
    const golden = await loadGoldenSet(SAMPLE_GOLDEN_FILE);
    const p = await createSamplePipeline({ version: "v1" });
    let hits = 0;
    let answerable = 0;
    const fold = (s: string) => s.normalize("NFC").replace(/\s+/gu, " ");
    for (const it of golden.items) {
      if (it.expected_source === null) continue;
      answerable++;
      const r = await p.ask(it.question);
      if (r.contexts.slice(0, 5).some((c) => c.document_id === it.expected_source && fold(c.text).includes(fold(it.expected_substring as string)))) hits++;
    }
    expect(answerable).toBe(112);
    expect(list[1]?.metrics["recall@5"]).toBe(hits / answerable);
  }, 300_000); // two full demo runs: ~40 s on an idle 2-core machine, far more when it is shared
});
