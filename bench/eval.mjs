#!/usr/bin/env node
// Is `ragmeter eval` bound by its target? (`npm run bench:eval`)
// The bundled sample target (npm run sample:serve, a child process) gets N questions (the sample golden
// set cycled, each copy with its own id) at concurrency C twice: once from a bare HTTP client (the
// target's own time), once through `ragmeter eval` with heuristic judges and the embedded store.
// Prints both wall times, their ratio (goal ≤ 1.2) and eval's peak RSS (goal ≤ 500 MiB at 20,000).
// Usage: node bench/eval.mjs [--questions 2000] [--concurrency 4] [--rss-questions 20000]
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { benchEvalArgs, sampleGolden, startSampleTarget, writeGoldenFile } from "./lib/sample-target.mjs";

const root = path.resolve(import.meta.dirname, "..");
const { values: args } = parseArgs({
  options: {
    questions: { type: "string", default: "2000" },
    concurrency: { type: "string", default: "4" },
    "rss-questions": { type: "string", default: "20000" },
  },
});
const N = Number(args.questions);
const C = Number(args.concurrency);
const RSS_N = Number(args["rss-questions"]);

function goldenFile(dir, n) {
  return writeGoldenFile(path.join(dir, `golden-${n}.jsonl`), n);
}

/** The target's own time: N questions from a bare client, C in flight. */
async function targetOnly(url, n) {
  let next = 0;
  const t0 = performance.now();
  const worker = async () => {
    while (next < n) {
      const it = sampleGolden[next++ % sampleGolden.length];
      const r = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ question: it.question }) });
      if (!r.ok) throw new Error(`target: HTTP ${r.status}`);
      await r.json();
    }
  };
  await Promise.all(Array.from({ length: C }, worker));
  return (performance.now() - t0) / 1000;
}

/** The environment without a judge endpoint: heuristic judges, so the bench measures eval, not an LLM. */
function heuristicEnv() {
  const env = { ...process.env };
  delete env.OPENAI_BASE_URL;
  delete env.OPENAI_API_KEY;
  return env;
}

function evalChild(url, golden, home, extra = []) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...extra, path.join(root, "bench/lib/eval-child.mjs"), ...benchEvalArgs(golden, url, C, home)], {
      env: heuristicEnv(),
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
    });
    child.on("exit", (code) => {
      const last = out.trim().split("\n").at(-1) ?? "";
      try {
        resolve(JSON.parse(last));
      } catch {
        reject(new Error(`eval child exited with ${code}: ${last}`));
      }
    });
  });
}

const dir = mkdtempSync(path.join(tmpdir(), "ragmeter-bench-eval-"));
const target = await startSampleTarget();
try {
  await targetOnly(target.url, Math.min(200, N)); // warm the target (corpus index, JIT)
  const own = await targetOnly(target.url, N);
  const ev = await evalChild(target.url, goldenFile(dir, N), path.join(dir, "home-a"));
  if (ev.code !== 0) throw new Error(`eval exited with ${ev.code}`);
  // The ratio is load-sensitive (2 cores shared with the target): print the load it was measured under.
  console.log(
    `questions ${N}, concurrency ${C}, heuristic judges, embedded store; load average ${loadavg()
      .map((x) => x.toFixed(2))
      .join(" ")}`,
  );
  console.log(`target's own time   ${own.toFixed(2)} s (${(N / own).toFixed(0)} questions/s)`);
  console.log(`ragmeter eval       ${ev.seconds.toFixed(2)} s (${(N / ev.seconds).toFixed(0)} questions/s), peak RSS ${ev.max_rss_mib.toFixed(0)} MiB`);
  console.log(`ratio eval / target ${(ev.seconds / own).toFixed(2)}× (goal ≤ 1.20×)`);
  if (RSS_N > 0) {
    const big = await evalChild(target.url, goldenFile(dir, RSS_N), path.join(dir, "home-b"));
    if (big.code !== 0) throw new Error(`eval exited with ${big.code}`);
    console.log(`ragmeter eval ${RSS_N} questions: ${big.seconds.toFixed(1)} s, peak RSS ${big.max_rss_mib.toFixed(0)} MiB (goal ≤ 500 MiB)`);
  }
} finally {
  await target.stop();
}
