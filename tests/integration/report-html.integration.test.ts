// `ragmeter report --png` on a seeded embedded store: the HTML is self-contained, opens in headless
// Chromium (Debian's chromium), and its charts carry the series computed here from the seed.
// Without Chromium the file is skipped with the install line; in CI (CI=true) that is a failure.
import { mkdirSync, readFileSync, statSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { Io } from "../../scorer/src/cli/context.js";
import { withReportPage } from "../../scorer/src/cli/format/browser.js";
import { runCli } from "../../scorer/src/cli/main.js";
import { openStore } from "../../store/src/client.js";
import { chromiumSkipReason } from "../helpers/chromium.js";

const outDir = path.resolve(import.meta.dirname, "../../test-output");
const T0 = Date.UTC(2026, 3, 1, 8);
const H = 3600_000;
const QS = ["g1", "g2", "g3", "g4", "g5"];
const RUNS = [
  { run_id: "r-a", pv: "v1", started: T0 },
  { run_id: "r-b", pv: "v2", started: T0 + 24 * H },
  { run_id: "r-c", pv: "v3", started: T0 + 48 * H },
];
// hit rank per run and question (null = miss within 10)
const RANK: Record<string, (number | null)[]> = { "r-a": [1, 2, 1, 4, 1], "r-b": [1, 1, 3, 2, 6], "r-c": [1, null, 3, 7, 2] };
const GROUNDING: Record<string, number[]> = { "r-a": [1, 1, 0.5, 1, 1], "r-b": [1, 0.5, 0.5, 1, 0], "r-c": [0.5, 0.5, 0, 1, 1] };
const RELEVANCE: Record<string, number[]> = { "r-a": [4, 3, 4, 4, 2], "r-b": [3, 3, 2, 4, 1], "r-c": [2, 4, 1, 3, 3] };
const CLAIMS: Record<string, string[]> = {
  "r-a": ["SUPPORTED", "SUPPORTED", "UNSUPPORTED"],
  "r-b": ["SUPPORTED", "CONTRADICTED"],
  "r-c": ["UNSUPPORTED", "CONTRADICTED", "SUPPORTED", "UNSUPPORTED"],
};
const ts = (ms: number) => new Date(ms).toISOString().replace("T", " ").replace("Z", "");
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const recall = (run: string, k: number) => mean(RANK[run]!.map((r) => (r !== null && r <= k ? 1 : 0)));

let home: string;
let html: string;
let png: string;
const io = (): Io & { errors: string[] } => {
  const errors: string[] = [];
  return { out: () => {}, err: (t) => errors.push(t), interactive: false, env: { ...process.env, RAGMETER_HOME: "" }, cwd: outDir, errors };
};

const noChromium = chromiumSkipReason("report-html");

describe.skipIf(noChromium !== null)("ragmeter report", () => {
  beforeAll(async () => {
    mkdirSync(outDir, { recursive: true });
    home = await mkdtemp(path.join(tmpdir(), "ragmeter-report-"));
    const store = await openStore({ kind: "embedded", home, database: "ragmeter" });
    const db = store.database;
    const ins = (table: string, values: Record<string, unknown>[]) => store.client.insert({ table: `${db}.${table}`, values, format: "JSONEachRow" });
    await ins(
      "golden_items",
      QS.map((q, i) => ({
        golden_set_hash: "gh",
        golden_id: q,
        position: i,
        question: `what about ${q}?`,
        expected_source: "d",
        expected_substring: null,
        reference_answer: null,
        key_facts: [],
        has_key_facts: 0,
        tags: i < 2 ? ["topic:a"] : ["topic:b"],
        version: 1,
      })),
    );
    for (const stale of [true, false]) {
      const version = stale ? 1 : 2;
      await ins(
        "runs",
        RUNS.map((r) => ({
          run_id: r.run_id,
          started_at: ts(r.started),
          finished_at: ts(r.started + 60_000),
          status: stale ? "running" : "completed",
          source: "golden",
          pipeline_version: r.pv,
          golden_set_hash: "gh",
          golden_set_path: "g.jsonl",
          judge_kind: "heuristic",
          judge_model: "heuristic",
          judge_prompt_version: "hp",
          ks: [1, 3, 5, 10],
          target: "t",
          summary: "{}",
          version,
        })),
      );
      const scores: Record<string, unknown>[] = [];
      const claims: Record<string, unknown>[] = [];
      const interactions: Record<string, unknown>[] = [];
      for (const r of RUNS) {
        QS.forEach((q, i) => {
          const trace = `${r.run_id}-${q}`;
          const base = {
            run_id: r.run_id,
            trace_id: trace,
            golden_id: q,
            repeat_index: 0,
            reason: "",
            pipeline_version: r.pv,
            source: "golden",
            created_at: ts(r.started + i * 1000),
            judge_input_tokens: 0,
            judge_output_tokens: 0,
            latency_ms: 0,
            version,
          };
          const mech = { ...base, judge_kind: "mechanical", judge_model: "", judge_prompt_version: "" };
          const v = (x: number) => (stale ? 1 - x : x);
          const rank = RANK[r.run_id]![i]!;
          for (const k of [1, 3, 5, 10]) {
            scores.push({ ...mech, metric: `recall@${k}`, value: v(rank !== null && rank <= k ? 1 : 0), status: "ok" });
            scores.push({ ...mech, metric: `precision@${k}`, value: v(rank !== null && rank <= k ? 1 / k : 0), status: "ok" });
            scores.push({ ...mech, metric: `ndcg@${k}`, value: v(rank !== null && rank <= k ? 1 / Math.log2(rank + 1) : 0), status: "ok" });
          }
          scores.push({ ...mech, metric: "mrr", value: v(rank === null ? 0 : 1 / rank), status: "ok" });
          scores.push({ ...mech, metric: "key_facts", value: v(0.5), status: "ok" });
          scores.push({
            ...base,
            judge_kind: "heuristic",
            judge_model: "heuristic",
            judge_prompt_version: "hp",
            metric: "grounding",
            value: v(GROUNDING[r.run_id]![i]!),
            status: "ok",
          });
          scores.push({
            ...base,
            judge_kind: "heuristic",
            judge_model: "heuristic",
            judge_prompt_version: "hp",
            metric: "relevance",
            value: stale ? 0 : RELEVANCE[r.run_id]![i]!,
            status: "ok",
          });
          interactions.push({
            trace_id: trace,
            run_id: r.run_id,
            golden_id: q,
            source: "golden",
            service_name: "",
            deployment_environment: "",
            pipeline_version: r.pv,
            question: `what about ${q}?`,
            answer: "a",
            // eight items; the expected chunk (document d) at the question's hit rank
            retrieved: Array.from({ length: 8 }, (_, j) =>
              j + 1 === rank
                ? { id: `${q}#hit`, document_id: "d", text: "t", score: null, rank: j + 1 }
                : { id: `${q}#o${j + 1}`, document_id: "x", text: "t", score: null, rank: j + 1 },
            ),
            generator_model: null,
            input_tokens: null,
            output_tokens: null,
            abstained: 0,
            status: "ok",
            reason: "",
            latency_ms: 1,
            created_at: ts(r.started + i * 1000),
            version,
          });
        });
        CLAIMS[r.run_id]!.forEach((verdict, j) => {
          claims.push({
            run_id: r.run_id,
            trace_id: `${r.run_id}-g1`,
            judge_prompt_version: "hp",
            repeat_index: 0,
            claim_index: j,
            golden_id: "g1",
            claim: `claim ${j} of ${r.run_id}`,
            verdict: stale ? "SUPPORTED" : verdict,
            chunk_ids: [],
            judge_model: "heuristic",
            pipeline_version: r.pv,
            created_at: ts(r.started + j),
            version,
          });
        });
      }
      await ins("scores", scores);
      await ins("claims", claims);
      await ins("interactions", interactions);
    }
    await store.close();
    html = path.join(outDir, "report.html");
    png = path.join(outDir, "report.png");
    const cli = io();
    const code = await runCli(["node", "ragmeter", "report", "--home", home, "--out", html, "--png"], cli);
    expect(cli.errors.join("\n")).toContain("wrote report.png");
    expect(code).toBe(0);
  }, 180_000);

  it("writes one self-contained HTML file (no external resources) and a PNG of the trend chart", () => {
    const text = readFileSync(html, "utf8");
    expect(text).not.toMatch(/<(script|link|img)[^>]+(src|href)=["']?(https?:)?\/\//iu);
    expect(text).toContain("default-src 'none'");
    const head = readFileSync(png).subarray(0, 8);
    expect([...head]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect(statSync(png).size).toBeGreaterThan(5000);
  });

  it("headless Chromium draws the charts with the expected series; screenshot in test-output/", async () => {
    const got = await withReportPage(html, async (page) => {
      await page.screenshot({ path: path.join(outDir, "report-page.png"), fullPage: true });
      return page.evaluate(`(() => {
        const out = {};
        for (const [id, c] of Object.entries(window.ragmeterCharts)) {
          out[id] = { labels: c.data.labels, series: c.data.datasets.map((d, i) => ({ label: d.label, data: d.data, drawn: c.getDatasetMeta(i).data.length, visible: c.isDatasetVisible(i) })) };
        }
        const canvas = document.getElementById("chart-trend");
        const px = canvas.getContext("2d").getImageData(0, 0, canvas.width, canvas.height).data;
        let blue = 0, green = 0, orange = 0;
        for (let i = 0; i < px.length; i += 4) {
          if (px[i] === 31 && px[i + 1] === 119 && px[i + 2] === 180) blue++;
          if (px[i] === 44 && px[i + 1] === 160 && px[i + 2] === 44) green++;
          if (px[i] === 255 && px[i + 1] === 127 && px[i + 2] === 14) orange++;
        }
        out.pixels = { blue, green, orange };
        out.ready = document.documentElement.dataset.chartsReady;
        out.lost = [...document.querySelectorAll("#lost-hit tbody tr td:first-child")].map((td) => td.textContent);
        out.bad = [...document.querySelectorAll("#bad-claims tbody tr")].length;
        out.comparison = [...document.querySelectorAll("#comparison tbody tr td:first-child")].map((td) => td.textContent);
        out.lostRanks = [...document.querySelectorAll("#lost-hit tbody tr td.ranks")].map((td) => td.textContent);
        out.instead = [...document.querySelectorAll("#lost-hit tbody tr td.instead")].map((td) => [...td.querySelectorAll("code")].map((c) => c.textContent));
        out.byTag = [...document.querySelectorAll("#by-tag tbody tr")].map((tr) => [...tr.querySelectorAll("td")].map((td) => td.textContent));
        out.runsGrounding = [...document.querySelectorAll("#runs tbody tr td:nth-child(7)")].map((td) => td.textContent);
        out.badGolden = [...new Set([...document.querySelectorAll("#bad-claims tbody tr td:nth-child(4)")].map((td) => td.textContent))];
        return out;
      })()`);
    });
    const r = got as Record<string, { labels: string[]; series: { label: string; data: (number | null)[]; drawn: number; visible: boolean }[] }> & {
      pixels: Record<string, number>;
      ready: string;
      lost: string[];
      bad: number;
      comparison: string[];
      lostRanks: string[];
      instead: string[][];
      byTag: string[][];
      runsGrounding: string[];
      badGolden: string[];
    };
    expect(r.ready).toBe("4");
    const close = (a: (number | null)[], b: number[]) => {
      expect(a).toHaveLength(b.length);
      a.forEach((x, i) => {
        expect(x).toBeCloseTo(b[i]!, 9);
      });
    };
    // trend: one point per completed run, oldest first
    const trend = r["trend"]!;
    expect(trend.labels.map((l) => l.split(" · ")[0])).toEqual(["v1", "v2", "v3"]);
    expect(trend.series.map((s) => s.label)).toEqual(["recall@5", "MRR", "grounding", "ground. risk", "relevance (0–4, right axis)", "context rel.", "key facts"]);
    close(
      trend.series[0]!.data,
      RUNS.map((x) => recall(x.run_id, 5)),
    );
    close(
      trend.series[1]!.data,
      RUNS.map((x) => mean(RANK[x.run_id]!.map((k) => (k === null ? 0 : 1 / k)))),
    );
    close(
      trend.series[2]!.data,
      RUNS.map((x) => mean(GROUNDING[x.run_id]!)),
    );
    close(
      trend.series[4]!.data,
      RUNS.map((x) => mean(RELEVANCE[x.run_id]!)),
    );
    for (const s of trend.series) expect([s.drawn, s.visible]).toEqual([3, true]);
    expect(r.pixels["blue"]).toBeGreaterThan(20); // recall line drawn
    expect(r.pixels["green"]).toBeGreaterThan(20); // grounding line drawn
    expect(r.pixels["orange"]).toBeGreaterThan(20); // relevance line drawn
    // retrieval: recall@1/3/5/10 and MRR per version
    const ret = r["retrieval"]!;
    expect(ret.labels).toEqual(["v1", "v2", "v3"]);
    expect(ret.series.map((s) => s.label)).toEqual([
      "recall@1",
      "recall@3",
      "recall@5",
      "recall@10",
      "precision@1",
      "precision@3",
      "precision@5",
      "precision@10",
      "ndcg@1",
      "ndcg@3",
      "ndcg@5",
      "ndcg@10",
      "MRR",
    ]);
    close(
      ret.series[1]!.data,
      RUNS.map((x) => recall(x.run_id, 3)),
    );
    // grounding: claims by verdict per run (stacked)
    const claims = r["claims"]!;
    expect(claims.series.map((s) => s.label)).toEqual(["SUPPORTED", "UNSUPPORTED", "CONTRADICTED"]);
    for (const [i, v] of ["SUPPORTED", "UNSUPPORTED", "CONTRADICTED"].entries())
      expect(claims.series[i]!.data).toEqual(RUNS.map((x) => CLAIMS[x.run_id]!.filter((c) => c === v).length));
    expect(r["versions"]!.series.map((s) => s.label)).toEqual(["recall@5", "grounding", "relevance ÷ 4", "key facts"]);
    // tables: lost hits at recall@5 from v2 to v3 (g2: rank 1 → miss; g4: 2 → 7), bad claims, paired comparison
    expect(r.lost).toEqual(["g2", "g4"]);
    expect(r.bad).toBe(CLAIMS["r-a"]!.concat(CLAIMS["r-b"]!, CLAIMS["r-c"]!).filter((c) => c !== "SUPPORTED").length);
    // per question: where the expected chunk went (g2: rank 1 → gone; g4: 2 → 7) and the top 5 retrieved instead in v3
    expect(r.lostRanks).toEqual(["1 → not retrieved", "2 → 7 (below 5)"]);
    expect(r.instead).toEqual([
      ["g2#o1", "g2#o2", "g2#o3", "g2#o4", "g2#o5"],
      ["g4#o1", "g4#o2", "g4#o3", "g4#o4", "g4#o5"],
    ]);
    // by tag, last run (v3): topic:a = g1, g2 (ranks 1, miss); topic:b = g3, g4, g5 (ranks 3, 7, 2) — by hand from RANK, GROUNDING, RELEVANCE, key facts 0.5
    expect(r.byTag).toEqual([
      // (grounding risk and context relevance: no score stored, "—")
      ["topic:a", "0.50 ·2", "0.50 ·2", "0.50 ·2", "0.50 ·2", "0.50 ·2", "—", "3.0/4 ·2", "—", "0.50 ·2", "—"],
      ["topic:b", "0.00 ·3", "0.67 ·3", "0.67 ·3", "1.00 ·3", "0.67 ·3", "—", "2.3/4 ·3", "—", "0.50 ·3", "—"],
    ]);
    // the terminal's rounding: grounding of v3, v2, v1 = mean(0.5, 0.5, 0, 1, 1) = 0.60, 0.60, 0.90
    expect(r.runsGrounding).toEqual(["0.60", "0.60", "0.90"]);
    // a claim names its golden id next to its question
    expect(r.badGolden).toEqual(["g1"]);
    expect(r.comparison).toEqual([
      "recall@1",
      "recall@3",
      "recall@5",
      "recall@10",
      "precision@1",
      "precision@3",
      "precision@5",
      "precision@10",
      "ndcg@1",
      "ndcg@3",
      "ndcg@5",
      "ndcg@10",
      "mrr",
      "grounding",
      "grounding_risk",
      "relevance",
      "context_relevance",
      "key_facts",
      "abstention",
    ]);
  }, 120_000);
});
