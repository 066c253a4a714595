#!/usr/bin/env node
// Hostile bodies against the real collector (issue 39): each body of a fixed catalog (deep nesting,
// huge counts of empty or invalid items, long integers, many attributes, …) is POSTed to
// `startCollector` in this process over loopback HTTP, next to valid production-shaped bodies.
// Prints, per body: status, milliseconds, size and milliseconds per MB, then the slowest refusal per
// MB against the valid path's. The sink is in memory by default (the valid path without Kafka's
// time, so the comparison is the strictest); `--kafka` sends to the local broker instead, and
// `--process` to a `ragmeter collector` process of its own (collector/dist/main.js) on the broker.
//
//   npm run bench:hostile [-- --only json-deep-5000,json-empty-spans-1m --rounds 3 --kafka | --process]
//
// Needs `npm run build` (imports collector/dist and otlp/dist). Only 127.0.0.1 is contacted.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { createAdmin, setUpTopics } from "@ragmeter/kafka";
import { collectorConfigSchema } from "../collector/dist/config.js";
import { startCollector } from "../collector/dist/server.js";
import { encodeLogsRequest, encodeTraceRequest } from "../otlp/dist/index.js";
import { startKafka } from "../scripts/kafka/kafka.mjs";
import { benchCollectorEnv, untilListening } from "./lib/collector-process.mjs";
import { benchBody } from "./lib/otlp-bodies.mjs";

const { values } = parseArgs({
  options: {
    only: { type: "string", default: "" },
    rounds: { type: "string", default: "1" },
    kafka: { type: "boolean", default: false },
    process: { type: "boolean", default: false },
  },
});
const rounds = Number(values.rounds);
const only = new Set(values.only.split(",").filter((s) => s !== ""));

const JSON_CT = "application/json";
const PB_CT = "application/x-protobuf";
const hex = (n) => randomBytes(n).toString("hex");
const wrapSpans = (spans) => `{"resourceSpans":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"h"}}]},"scopeSpans":[{"spans":[${spans}]}]}]}`;
const wrapLogs = (logs) => `{"resourceLogs":[{"scopeLogs":[{"logRecords":[${logs}]}]}]}`;
const validSpan = (attrs = "[]") => `{"traceId":"${hex(16)}","spanId":"${hex(8)}","name":"s","attributes":${attrs}}`;
const repeatJoin = (s, n) => `${s},`.repeat(n).slice(0, -1);

/** Protobuf bytes: field `f` length-delimited, holding `inner`. */
function ld(f, inner) {
  const len = [];
  let n = inner.length;
  while (n >= 0x80) {
    len.push((n & 0x7f) | 0x80);
    n >>>= 7;
  }
  len.push(n);
  return Buffer.concat([Buffer.from([(f << 3) | 2, ...len]), inner]);
}
const pbTraces = (spans) => ld(1, ld(2, spans)); // ResourceSpans { ScopeSpans { spans… } }
const pbLogs = (logs) => ld(1, ld(2, logs)); // ResourceLogs { ScopeLogs { logRecords… } }

function nestedJsonValue(depth, kind) {
  let v = '{"stringValue":"x"}';
  for (let i = 0; i < depth; i++) v = kind === "kv" ? `{"kvlistValue":{"values":[{"key":"k","value":${v}}]}}` : `{"arrayValue":{"values":[${v}]}}`;
  return v;
}
function nestedPbValue(depth) {
  let v = ld(1, Buffer.from("x")); // AnyValue{string_value}
  for (let i = 0; i < depth; i++) v = ld(5, ld(1, v)); // AnyValue{array_value: ArrayValue{values: v}}
  return v;
}
const pbSpanWithAttr = (value) => ld(2, Buffer.concat([ld(1, randomBytes(16)), ld(2, randomBytes(8)), ld(9, Buffer.concat([ld(1, Buffer.from("a")), ld(2, value)]))]));

/** Production-shaped valid logs: GenAI content events of 20 traces. */
function validLogsPb(records) {
  const logRecords = [];
  for (let i = 0; i < records; i++) {
    logRecords.push({
      timeUnixNano: 1_764_480_000_000_000_000n,
      observedTimeUnixNano: 0n,
      severityNumber: 9,
      severityText: "",
      body: { kvlistValue: { values: [{ key: "content", value: { stringValue: "How do I rotate the signing keys of the payments service? ".repeat(4) } }] } },
      attributes: [{ key: "gen_ai.system", value: { stringValue: "openai" } }],
      droppedAttributesCount: 0,
      flags: 0,
      traceId: hex(16),
      spanId: hex(8),
      eventName: "gen_ai.user.message",
    });
  }
  return {
    resourceLogs: [
      {
        resource: { attributes: [], droppedAttributesCount: 0, entityRefs: [] },
        schemaUrl: "",
        scopeLogs: [{ scope: { name: "x", version: "", attributes: [], droppedAttributesCount: 0 }, schemaUrl: "", logRecords }],
      },
    ],
  };
}

const codec = { encodeTraceRequest };
/** name → [path, content type, body, valid?] */
const catalog = {
  // valid, production-shaped (bench:collector's spans) and minimal
  "valid-pb-traces": () => ["/v1/traces", PB_CT, benchBody(codec, 100, 100), true],
  "valid-json-traces": () => {
    const attrs = `[{"key":"gen_ai.operation.name","value":{"stringValue":"retrieval"}},{"key":"gen_ai.request.model","value":{"stringValue":"gpt-4o-mini"}},{"key":"gen_ai.usage.input_tokens","value":{"intValue":"512"}},{"key":"gen_ai.retrieval.query.text","value":{"stringValue":"How do I rotate the signing keys of the payments service without downtime?"}}]`;
    return ["/v1/traces", JSON_CT, Buffer.from(wrapSpans(Array.from({ length: 10_000 }, () => validSpan(attrs)).join(","))), true];
  },
  "valid-json-min-spans-100k": () => ["/v1/traces", JSON_CT, Buffer.from(wrapSpans(Array.from({ length: 100_000 }, () => validSpan()).join(","))), true],
  "valid-pb-logs": () => ["/v1/logs", PB_CT, Buffer.from(encodeLogsRequest(validLogsPb(10_000))), true],
  "valid-json-logs": () => ["/v1/logs", JSON_CT, Buffer.from(encodeLogsRequest(validLogsPb(10_000), "json")), true],
  // hostile
  "json-deep-5000": () => ["/v1/traces", JSON_CT, Buffer.from(wrapSpans(validSpan(`[{"key":"a","value":${nestedJsonValue(5_000, "array")}}]`))), false],
  "json-deep-5000-x30": () => [
    "/v1/traces",
    JSON_CT,
    Buffer.from(wrapSpans(Array.from({ length: 30 }, () => validSpan(`[{"key":"a","value":${nestedJsonValue(5_000, "array")}}]`)).join(","))),
    false,
  ],
  "json-deep-kvlist-5000": () => ["/v1/traces", JSON_CT, Buffer.from(wrapSpans(validSpan(`[{"key":"a","value":${nestedJsonValue(5_000, "kv")}}]`))), false],
  "json-logs-deep-body-5000": () => ["/v1/logs", JSON_CT, Buffer.from(wrapLogs(`{"body":${nestedJsonValue(5_000, "array")}}`)), false],
  "json-brackets-100k": () => ["/v1/traces", JSON_CT, Buffer.from(`{"resourceSpans":${"[".repeat(100_000)}${"]".repeat(100_000)}}`), false],
  "pb-deep-5000": () => ["/v1/traces", PB_CT, pbTraces(pbSpanWithAttr(nestedPbValue(5_000))), false],
  "pb-deep-5000-x100": () => ["/v1/traces", PB_CT, pbTraces(Buffer.concat(Array.from({ length: 100 }, () => pbSpanWithAttr(nestedPbValue(5_000))))), false],
  "json-empty-spans-1m": () => ["/v1/traces", JSON_CT, Buffer.from(wrapSpans(repeatJoin("{}", 1_000_000))), false],
  "json-bad-id-spans-300k": () => ["/v1/traces", JSON_CT, Buffer.from(wrapSpans(repeatJoin('{"traceId":"x","spanId":"y"}', 300_000))), false],
  "json-empty-logs-1m": () => ["/v1/logs", JSON_CT, Buffer.from(wrapLogs(repeatJoin("{}", 1_000_000))), false],
  "json-empty-resources-1m": () => ["/v1/traces", JSON_CT, Buffer.from(`{"resourceSpans":[${repeatJoin("{}", 1_000_000)}]}`), false],
  "json-empty-scopes-1m": () => ["/v1/traces", JSON_CT, Buffer.from(`{"resourceSpans":[{"scopeSpans":[${repeatJoin("{}", 1_000_000)}]}]}`), false],
  "json-attrs-500k": () => ["/v1/traces", JSON_CT, Buffer.from(wrapSpans(validSpan(`[${repeatJoin('{"key":"","value":{}}', 500_000)}]`))), false],
  "json-events-1m": () => ["/v1/traces", JSON_CT, Buffer.from(wrapSpans(`{"traceId":"${hex(16)}","spanId":"${hex(8)}","events":[${repeatJoin("{}", 1_000_000)}]}`)), false],
  "json-long-ints-500k": () => [
    "/v1/traces",
    JSON_CT,
    Buffer.from(wrapSpans(`{"traceId":"${hex(16)}","spanId":"${hex(8)}","x":[${repeatJoin("1234567890123456789", 500_000)}]}`)),
    false,
  ],
  "json-string-15mb": () => ["/v1/traces", JSON_CT, Buffer.from(wrapSpans(validSpan(`[{"key":"a","value":{"stringValue":"${"x".repeat(15_000_000)}"}}]`))), false],
  "pb-empty-spans-1m": () => ["/v1/traces", PB_CT, pbTraces(Buffer.alloc(2_000_000).fill(Buffer.from([0x12, 0x00]))), false],
  "pb-empty-logs-1m": () => ["/v1/logs", PB_CT, pbLogs(Buffer.alloc(2_000_000).fill(Buffer.from([0x12, 0x00]))), false],
  "pb-empty-resources-1m": () => ["/v1/traces", PB_CT, Buffer.alloc(2_000_000).fill(Buffer.from([0x0a, 0x00])), false],
  "pb-attrs-1m": () => [
    "/v1/traces",
    PB_CT,
    pbTraces(ld(2, Buffer.concat([ld(1, randomBytes(16)), ld(2, randomBytes(8)), Buffer.alloc(2_000_000).fill(Buffer.from([0x4a, 0x00]))]))),
    false,
  ],
  "pb-one-trace-spans-300k": () => {
    const t = randomBytes(16);
    const spans = Array.from({ length: 300_000 }, () => ld(2, Buffer.concat([ld(1, t), ld(2, randomBytes(8))])));
    return ["/v1/traces", PB_CT, pbTraces(Buffer.concat(spans)), false];
  },
};

const sink =
  values.kafka || values.process
    ? undefined
    : {
        records: 0,
        async send(_signal, records) {
          this.records += records.length;
        },
        async ready() {
          return true;
        },
        degraded: () => false,
        async close() {},
      };
const brokers = process.env.KAFKA_BROKERS ?? "127.0.0.1:9092";
const topic = `ragmeter.bench.hostile.${hex(4)}`;
let collector;
let child;
if (values.process) {
  await startKafka({ log: () => {} });
  const admin = createAdmin({ brokers: brokers.split(","), security: { protocol: "PLAINTEXT" } }, "bench-hostile");
  await setUpTopics(admin, [topic, `${topic}.dlq`], { create: true, partitions: 3, leaderTimeoutMs: 30_000 });
  await admin.close();
  const main = join(dirname(fileURLToPath(import.meta.url)), "..", "collector", "dist", "main.js");
  child = spawn(process.execPath, [main], { env: { ...process.env, ...benchCollectorEnv({ brokers, topic }) }, stdio: ["ignore", "ignore", "pipe"] });
  collector = { url: await untilListening(child, { timeoutMs: 60_000 }), close: async () => void child.kill("SIGTERM") };
  console.log(`ragmeter collector process ${child.pid} at ${collector.url}, topic ${topic}`);
} else {
  const config = collectorConfigSchema.parse({ host: "127.0.0.1", port: 0, ...(values.kafka ? { topic } : {}) });
  collector = await startCollector(config, sink ? { sink } : {});
}

async function post(path, contentType, body) {
  const t = performance.now();
  const res = await fetch(collector.url + path, { method: "POST", body, headers: { "content-type": contentType } });
  const text = Buffer.from(await res.arrayBuffer());
  const ms = performance.now() - t;
  let message = "";
  if (contentType === JSON_CT) message = text.toString("utf8").slice(0, 160);
  else
    message =
      text.length > 0
        ? text
            .subarray(0, 160)
            .toString("latin1")
            .replace(/[^\x20-\x7e]/g, "")
        : "";
  return { status: res.status, ms, message };
}

let slowestRefusal = { name: "", msPerMb: 0 };
let slowestValid = { name: "", msPerMb: 0 };
console.log("body                          status        ms       MB    ms/MB  answer");
for (const [name, make] of Object.entries(catalog)) {
  if (only.size > 0 && !only.has(name)) continue;
  const [path, contentType, body, valid] = make();
  const mb = body.length / 1_048_576;
  for (let r = 0; r < rounds; r++) {
    const { status, ms, message } = await post(path, contentType, body);
    const msPerMb = ms / mb;
    console.log(
      `${name.padEnd(29)} ${String(status).padStart(6)} ${ms.toFixed(1).padStart(9)} ${mb.toFixed(3).padStart(8)} ${msPerMb.toFixed(0).padStart(8)}  ${message.slice(0, 110)}`,
    );
    // Per MB only for bodies of 1 MiB and more: below, the fixed cost of a request (and a collection
    // that happens to fall in it) is all there is to see.
    if (mb < 1) continue;
    if (valid && msPerMb > slowestValid.msPerMb) slowestValid = { name, msPerMb };
    if (!valid && status >= 400 && msPerMb > slowestRefusal.msPerMb) slowestRefusal = { name, msPerMb };
  }
}
console.log(
  `bodies of 1 MiB and more: slowest refusal ${slowestRefusal.msPerMb.toFixed(0)} ms/MB (${slowestRefusal.name}); slowest valid ${slowestValid.msPerMb.toFixed(0)} ms/MB (${slowestValid.name})`,
);
await collector.close();
if (values.process || values.kafka) {
  const admin = createAdmin({ brokers: brokers.split(","), security: { protocol: "PLAINTEXT" } }, "bench-hostile");
  await admin.deleteTopics({ topics: [topic, `${topic}.dlq`] }).catch(() => {});
  await admin.close();
}
