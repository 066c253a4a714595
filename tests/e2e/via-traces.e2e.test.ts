import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SAMPLE_GOLDEN_FILE } from "../../examples/sample-rag/src/index.js";
import { cli } from "../helpers/cli.js";
import { BROKER, createTopic, ensureBroker } from "../helpers/collector-kafka-helpers.js";
import { startSampleServeChild } from "../helpers/sampleServe.js";
import { freePort, startSampleTracingTo, viaTracesFlags } from "../helpers/viaTraces.js";

const root = path.resolve(import.meta.dirname, "../..");
type Report = {
  metrics: Record<string, number | null>;
  counts: Record<string, Record<string, number>>;
  questions: {
    golden_id: string;
    recall: unknown;
    hit_rank: number | null;
    grounding: number | null;
    relevance: number | null;
    key_facts: number | null;
    abstained: boolean | null;
    status: string;
  }[];
};
const pick = (r: Report) => ({
  metrics: r.metrics,
  counts: r.counts,
  questions: r.questions.map((q) => ({ id: q.golden_id, recall: q.recall, hit: q.hit_rank, g: q.grounding, r: q.relevance, k: q.key_facts, a: q.abstained, s: q.status })),
});

let dir: string;
let direct: Report;
let sampleUrl: string;
let otlpPort: number;
let stopSample: () => Promise<void>;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "ragmeter-via-"));
  otlpPort = await freePort();
  const sample = await startSampleTracingTo(otlpPort);
  sampleUrl = sample.url;
  stopSample = sample.stop;
  const out = path.join(dir, "direct.json");
  const r = await cli(["eval", "--golden", SAMPLE_GOLDEN_FILE, "--target", sampleUrl, "--pipeline-version", "sample-v1", "--json", out, "--home", path.join(dir, "direct")]);
  expect(r.code, r.err).toBe(0);
  direct = JSON.parse(await readFile(out, "utf8")) as Report;
});
afterAll(async () => {
  await stopSample?.();
});

describe("eval --via-traces on the bundled golden set gives the direct mode's numbers", () => {
  it("embedded mode: OTLP straight to the eval process, scored in process", async () => {
    const out = path.join(dir, "via.json");
    const r = await cli([
      "eval",
      "--golden",
      SAMPLE_GOLDEN_FILE,
      "--target",
      sampleUrl,
      "--pipeline-version",
      "sample-v1",
      "--json",
      out,
      "--home",
      path.join(dir, "via"),
      ...viaTracesFlags(otlpPort),
    ]);
    expect(r.code, r.err).toBe(0);
    const via = JSON.parse(await readFile(out, "utf8")) as Report;
    expect(via.counts["questions"]).toEqual({ ok: 121 });
    expect(pick(via)).toEqual(pick(direct));
    expect(direct.metrics["recall@5"]).toBeGreaterThan(0.5);
  });

  it("distributed path: instrumented sample → collector → Kafka → scorer → ClickHouse engine", async () => {
    await ensureBroker();
    const { topic, drop } = await createTopic(3);
    const collectorPort = await freePort();
    const collector = spawn(process.execPath, [path.join(root, "scorer/bin/ragmeter.js"), "collector", "--port", String(collectorPort), "--host", "127.0.0.1"], {
      env: { ...process.env, KAFKA_BROKERS: BROKER, RAGMETER_TOPIC: topic, RAGMETER_LOG_LEVEL: "warn" },
      stdio: "ignore",
    });
    const sample = await startSampleServeChild({ OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${collectorPort}`, OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: "true" });
    try {
      const out = path.join(dir, "kafka.json");
      const r = await cli(
        [
          "eval",
          "--golden",
          SAMPLE_GOLDEN_FILE,
          "--target",
          sample.url,
          "--pipeline-version",
          "sample-v1",
          "--json",
          out,
          "--home",
          path.join(dir, `kafka-${randomUUID().slice(0, 6)}`),
          "--via-traces",
          "--quiet-ms",
          "500",
          "--trace-timeout",
          "20000",
        ],
        { KAFKA_BROKERS: BROKER, RAGMETER_TOPIC: topic },
      );
      expect(r.code, r.err).toBe(0);
      const viaKafka = JSON.parse(await readFile(out, "utf8")) as Report;
      expect(viaKafka.counts["questions"]).toEqual({ ok: 121 });
      expect(pick(viaKafka)).toEqual(pick(direct));
    } finally {
      await sample.stop();
      collector.kill("SIGTERM");
      await drop();
    }
  });
});
