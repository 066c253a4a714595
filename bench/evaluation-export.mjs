#!/usr/bin/env node
// What does the evaluation export (RAGMETER_EVALUATION_EXPORT_ENDPOINT) cost `ragmeter eval`?
// (`npm run bench:evaluation-export`) The bundled sample target (a child process) gets N questions
// (the sample golden set cycled) through `ragmeter eval` with heuristic judges and the embedded
// store, alternately without the export, with it to a local OTLP/HTTP receiver (which decodes every
// request with the official protos and counts the records), and with it to a port where nothing
// listens. Prints the median wall time of each, the ratios to "off", and events received / scores.
// Usage: node bench/evaluation-export.mjs [--questions 500] [--repeats 3] [--concurrency 4]
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { createServer } from "node:http";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import protobuf from "protobufjs";
import { benchEvalArgs, startSampleTarget, writeGoldenFile } from "./lib/sample-target.mjs";

const root = path.resolve(import.meta.dirname, "..");
const { values: args } = parseArgs({
  options: { questions: { type: "string", default: "500" }, repeats: { type: "string", default: "3" }, concurrency: { type: "string", default: "4" } },
});
const N = Number(args.questions);
const R = Number(args.repeats);
const C = Number(args.concurrency);
const KS = "1,3,5,10";
const METRICS_PER_QUESTION = 4 + 6; // recall@1,3,5,10 + mrr, grounding, relevance, key_facts, abstention, reference_facts

async function startReceiver() {
  const proto = new protobuf.Root();
  proto.resolvePath = (_o, t) => path.join(root, "otlp/proto", t);
  proto.loadSync("opentelemetry/proto/collector/logs/v1/logs_service.proto");
  const T = proto.lookupType("opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest");
  const stats = { requests: 0, records: 0, bytes: 0 };
  const server = createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const msg = T.decode(body);
      stats.requests++;
      stats.bytes += body.length;
      for (const rl of msg.resourceLogs) for (const sl of rl.scopeLogs) stats.records += sl.logRecords.length;
      res.writeHead(200, { "content-type": "application/x-protobuf" }).end();
    });
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  return { base: `http://127.0.0.1:${server.address().port}`, stats, close: () => new Promise((r) => server.close(r)) };
}

function runEval(dir, golden, url, env, i) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, [path.join(root, "scorer/bin/ragmeter.js"), ...benchEvalArgs(golden, url, C, path.join(dir, `home-${i}`)), "--k", KS], {
      env: { ...process.env, CI: "true", ...env },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let err = "";
    child.stderr.on("data", (d) => (err += d));
    child.on("exit", (code) => (code === 0 ? resolve({ ms: performance.now() - t0, err }) : reject(new Error(`eval exited ${code}: ${err}`))));
  });
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const dir = mkdtempSync(path.join(tmpdir(), "ragmeter-bench-export-"));
const golden = writeGoldenFile(path.join(dir, "golden.jsonl"), N);
const target = await startSampleTarget();
const receiver = await startReceiver();
const modes = {
  off: {},
  receiver: { RAGMETER_EVALUATION_EXPORT_ENDPOINT: receiver.base },
  down: { RAGMETER_EVALUATION_EXPORT_ENDPOINT: "http://127.0.0.1:9", OTEL_EXPORTER_OTLP_LOGS_TIMEOUT: "2000" },
};
const times = { off: [], receiver: [], down: [] };
const received = [];
let i = 0;
try {
  for (let r = 0; r < R; r++) {
    for (const [mode, env] of Object.entries(modes)) {
      const before = receiver.stats.records;
      const { ms, err } = await runEval(dir, golden, target.url, env, i++);
      times[mode].push(ms);
      if (mode === "receiver") received.push(receiver.stats.records - before);
      if (mode === "down" && !/evaluation export to .* failed/u.test(err)) throw new Error(`no export warning with the endpoint down: ${err}`);
    }
  }
} finally {
  await target.stop();
  await receiver.close();
}
const off = median(times.off);
console.log(
  `questions ${N}, concurrency ${C}, k ${KS}, repeats ${R}, load average ${loadavg()
    .map((x) => x.toFixed(2))
    .join(" ")}`,
);
for (const mode of Object.keys(modes))
  console.log(
    `${mode.padEnd(9)} median ${(median(times[mode]) / 1000).toFixed(2)} s  ratio to off ${(median(times[mode]) / off).toFixed(3)}  (${times[mode].map((t) => (t / 1000).toFixed(2)).join(", ")})`,
  );
console.log(
  `events received per run: ${received.join(", ")} (scores per run: ${N * METRICS_PER_QUESTION}); requests ${receiver.stats.requests}, ${(receiver.stats.bytes / receiver.stats.records).toFixed(0)} bytes per event`,
);
