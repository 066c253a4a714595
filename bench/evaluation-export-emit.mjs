#!/usr/bin/env node
// CPU cost of the evaluation export per event, in process (`node bench/evaluation-export-emit.mjs`
// after `tsc -b`): 3,000 questions × 10 score rows mapped to gen_ai.evaluation.result events and
// exported through the OTel logs SDK to a local HTTP receiver that answers 200. Prints events,
// requests, wall and CPU time, CPU µs per event.
import { createServer } from "node:http";
import { evaluationsOf } from "../core/dist/scoring/evaluations.js";
import { startEvaluationExport } from "../stream/dist/evaluationExport.js";

let n = 0;
const server = createServer((req, res) => {
  req.on("data", () => {});
  req.on("end", () => {
    n++;
    res.writeHead(200).end();
  });
});
await new Promise((r) => server.listen(0, "127.0.0.1", r));
const base = `http://127.0.0.1:${server.address().port}`;
const row = (i, metric) => ({
  run_id: "r",
  trace_id: i.toString(16).padStart(32, "0"),
  golden_id: `g${i}`,
  metric,
  value: 0.5,
  status: "ok",
  reason: "some reason",
  judge_kind: "heuristic",
  judge_model: "heuristic",
  judge_prompt_version: "abc",
  repeat_index: 0,
  pipeline_version: "v",
  source: "golden",
  judge_input_tokens: 0,
  judge_output_tokens: 0,
  latency_ms: 0,
});
const metrics = ["recall@1", "recall@3", "recall@5", "recall@10", "mrr", "grounding", "relevance", "key_facts", "abstention", "reference_facts"];
const Q = 3000;
const c0 = process.cpuUsage();
const t0 = performance.now();
const exp = startEvaluationExport({ url: `${base}/v1/logs`, headers: {}, timeoutMs: 10000 }, "bench", (m) => console.error(m));
for (let i = 1; i <= Q; i++) exp.emit(evaluationsOf({ scores: metrics.map((m) => row(i, m)), claims: [] }, { retrieval: null, generation: null, root: "00000000000000a1" }));
const st = await exp.shutdown();
const c = process.cpuUsage(c0);
const t = performance.now() - t0;
console.log(
  JSON.stringify({
    events: Q * metrics.length,
    stats: st,
    requests: n,
    wall_ms: t.toFixed(0),
    cpu_ms: ((c.user + c.system) / 1000).toFixed(0),
    cpu_us_per_event: ((c.user + c.system) / (Q * metrics.length)).toFixed(1),
  }),
);
server.close();
