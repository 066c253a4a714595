#!/usr/bin/env node
// Cost of the judge budget's read of the group's spend (`npm run bench:budget-read`, issue 38; design
// §5): every scorer runs it at start and every 10 s. Fills a fresh embedded store with the
// `ingestion_stats` rows of K scorers × 60 minutes × S services, each minute written 6 times (a write
// every 10 s, the latest wins after FINAL), then times `selectJudgeSpend` (the query the scorer runs)
// --reads times: wall time p50 / p90 and the CPU of this process (the embedded engine's threads
// included) p50, and checks one service's sum against the count by hand ((K − 1) × 60 × 6).
// Usage: node bench/budget-read.mjs [--scorers 10] [--services 20] [--reads 30]
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { openStore } from "../store/dist/client.js";
import { saveIngestionStats, selectJudgeSpend } from "../store/dist/ingestionStats.js";

const { values: args } = parseArgs({
  options: { scorers: { type: "string", default: "10" }, services: { type: "string", default: "20" }, reads: { type: "string", default: "30" } },
});
const K = Number(args.scorers);
const S = Number(args.services);
const R = Number(args.reads);
const home = mkdtempSync(path.join(tmpdir(), "ragmeter-budget-read-"));
const store = await openStore({ kind: "embedded", home, database: "ragmeter" });
try {
  const minuteNow = Math.floor(Date.now() / 60_000);
  for (let w = 1; w <= 6; w++) {
    const rows = [];
    for (let k = 0; k < K; k++) {
      for (let m = 0; m < 60; m++) {
        const calls = {};
        const tokens = {};
        for (let s = 0; s < S; s++) {
          calls[`svc-${s}`] = w;
          tokens[`svc-${s}`] = 100 * w;
        }
        rows.push({
          minute: (minuteNow - m) * 60,
          scorer_id: `scorer-${k}`,
          spans_received: 0,
          traces_scored: 0,
          consumer_lag: 0,
          dlq_count: 0,
          judge_calls_by_service: calls,
          judge_tokens_by_service: tokens,
        });
      }
    }
    await saveIngestionStats(store, rows);
  }
  const from = (minuteNow - 59) * 60;
  const wall = [];
  const cpu = [];
  let last = [];
  for (let i = 0; i < R; i++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    last = await selectJudgeSpend(store, from, "scorer-0");
    wall.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
  }
  const q = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))].toFixed(2);
  const svc0 = last.filter((x) => x.service === "svc-0").reduce((a, x) => a + x.calls, 0);
  const expected = (K - 1) * 60 * 6;
  console.log(
    JSON.stringify({
      scorers: K,
      services: S,
      rows_stored: K * 60 * 6,
      rows_returned: last.length,
      svc0_calls: svc0,
      expected,
      wall_ms_p50: q(wall, 0.5),
      wall_ms_p90: q(wall, 0.9),
      cpu_ms_p50: q(cpu, 0.5),
      load: loadavg()[0].toFixed(1),
    }),
  );
  if (svc0 !== expected) process.exitCode = 1;
} finally {
  await store.close();
  rmSync(home, { recursive: true, force: true });
}
