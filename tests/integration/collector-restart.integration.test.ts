// Broker stopped while requests arrive: 503s (never a 200 for data not written), then recovery
// without restarting the collector, and no producer sequence errors across the restart.
// Runs its own broker on 127.0.0.1:19092 so the shared broker on 9092 is never disturbed.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { collectorConfigSchema } from "../../collector/src/config.js";
import { startCollector } from "../../collector/src/server.js";
import { decodeTraceRequest, encodeTraceRequest } from "../../otlp/src/codec.js";
import { createLogger } from "../../runtime/src/logger.js";
import { startKafka, stopKafka } from "../../scripts/kafka/kafka.mjs";
import { hex, makeRequest, makeSpan, spansOf } from "../helpers/collector-fixtures.js";
import { consume, createTopic, post } from "../helpers/collector-kafka-helpers.js";

const PORT = process.env["RAGMETER_TEST_RESTART_KAFKA_PORT"] ?? "19092";
const BROKERS = `127.0.0.1:${PORT}`;
const env = { ...process.env, RAGMETER_KAFKA_PORT: PORT, RAGMETER_KAFKA_CONTROLLER_PORT: String(Number(PORT) + 1), RAGMETER_KAFKA_HEAP: "512m" };
const quiet = { env, log: () => {} };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  await startKafka(quiet);
}, 180_000);

afterAll(async () => {
  await stopKafka(quiet);
}, 60_000);

describe.each([false, true])("broker restart under load (idempotent producer: %s)", (idempotent) => {
  it("answers 503 while Kafka is down, recovers after, and loses no acknowledged span", async () => {
    const { topic, drop } = await createTopic(3, BROKERS);
    const warnings: string[] = [];
    const logger = createLogger({ level: "warn", destination: { write: (line: string) => void warnings.push(line) } });
    const collector = await startCollector(
      collectorConfigSchema.parse({ host: "127.0.0.1", port: 0, brokers: [BROKERS], topic, sendTimeoutMs: 3_000, kafkaBackoffMs: 300, idempotent }),
      { logger },
    );
    const results: { traceId: string; spanIds: string[]; status: number; phase: string }[] = [];
    let phase = "before";
    let running = true;
    const worker = async (): Promise<void> => {
      while (running) {
        const traceId = hex(16);
        const req = makeRequest();
        req.resourceSpans = [req.resourceSpans[0]!];
        const spans = Array.from({ length: 5 }, () => makeSpan(traceId));
        req.resourceSpans[0]!.scopeSpans[0]!.spans = spans;
        const started = phase;
        let status: number;
        try {
          status = (await post(`${collector.url}/v1/traces`, encodeTraceRequest(req), { "content-type": "application/x-protobuf" })).status;
        } catch {
          status = -1;
        }
        results.push({ traceId, spanIds: spans.map((s) => s.spanId), status, phase: started });
        if (status !== 200) await sleep(50);
      }
    };
    const workers = Array.from({ length: 8 }, worker);
    try {
      await sleep(1_500);
      phase = "stopping";
      await stopKafka(quiet);
      phase = "down";
      const downSince = Date.now();
      while (results.filter((r) => r.phase === "down" && r.status === 503).length < 5 && Date.now() - downSince < 20_000) await sleep(100);
      phase = "starting";
      await startKafka(quiet);
      phase = "after";
      const upSince = Date.now();
      while (results.filter((r) => r.phase === "after" && r.status === 200).length < 50 && Date.now() - upSince < 60_000) await sleep(100);
    } finally {
      running = false;
      await Promise.all(workers);
      await collector.close();
    }
    const byPhase = (p: string, s: number) => results.filter((r) => r.phase === p && r.status === s).length;
    const unexpected = results.filter((r) => r.status !== 200 && r.status !== 503);
    expect(unexpected).toEqual([]);
    expect(byPhase("before", 200)).toBeGreaterThan(0);
    expect(byPhase("down", 503)).toBeGreaterThanOrEqual(5);
    expect(byPhase("down", 200)).toBe(0);
    expect(byPhase("after", 200)).toBeGreaterThanOrEqual(50);

    const acked = results.filter((r) => r.status === 200);
    const ackedIds = new Set(acked.map((r) => r.traceId));
    const msgs = await consume(topic, (m) => ackedIds.size > 0 && [...ackedIds].every((id) => m.some((x) => x.key === id)), 30_000, BROKERS);
    const stored = new Map<string, Set<string>>();
    for (const m of msgs) {
      for (const s of spansOf(decodeTraceRequest(m.value, "application/x-protobuf").request)) {
        if (!stored.has(s.traceId)) stored.set(s.traceId, new Set());
        stored.get(s.traceId)!.add(s.spanId);
      }
    }
    const missing = acked.filter((r) => !r.spanIds.every((id) => stored.get(r.traceId)?.has(id)));
    expect(missing).toEqual([]);
    expect(warnings.filter((w) => /sequence/i.test(w))).toEqual([]);
    const counts = {
      before: byPhase("before", 200),
      down503: byPhase("down", 503),
      after: byPhase("after", 200),
      stored: stored.size,
      acked: acked.length,
      warnings: warnings.length,
    };
    process.stderr.write(`restart (idempotent=${idempotent}): ${JSON.stringify(counts)}\n`);
    await drop();
  }, 180_000);
});
