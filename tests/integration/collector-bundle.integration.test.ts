// The stand-alone entry point runs the bundle (collector/dist/bundle, built by `npm run build` with
// @platformatic/kafka's unused modules dropped and ajv / mnemonist replaced): the same guarantees
// as the compiled collector, through a real broker. Topic creation, one record per trace keyed by
// trace id on the partition Kafka's Java client would pick, partialSuccess, 400/415, 503 with
// Retry-After when Kafka is down, and the cluster worker entry of the bundle.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type KafkaAdmin, topicOffsets } from "../../kafka/src/index.js";
import { decodeErrorStatus, decodeExportResponse, encodeTraceRequest } from "../../otlp/src/codec.js";
import { hex, makeRequest, makeSpan } from "../helpers/collector-fixtures.js";
import { BROKER, consume, dropTopics, ensureBroker, partitionCount, post, testAdmin } from "../helpers/collector-kafka-helpers.js";
import { javaPartition } from "../helpers/javaPartitioner.js";

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const bin = path.join(root, "collector", "bin", "ragmeter-collector.js");
const PB = { "content-type": "application/x-protobuf" };
const children: ChildProcess[] = [];
const topics: string[] = [];
let admin: KafkaAdmin;

/** Starts the bin; resolves with its URL and what it wrote on stderr up to the listening line. */
async function startBin(env: Record<string, string>): Promise<{ url: string; stderr: string }> {
  const c = spawn(bin, [], {
    env: { ...process.env, RAGMETER_COLLECTOR_HOST: "127.0.0.1", RAGMETER_COLLECTOR_PORT: "0", RAGMETER_LOG_LEVEL: "info", ...env },
    stdio: ["ignore", "ignore", "pipe"],
  });
  children.push(c);
  let buf = "";
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no listening line within 30 s: ${buf}`)), 30_000);
    c.once("exit", (code) => reject(new Error(`the collector exited with ${code}: ${buf}`)));
    c.stderr!.on("data", (d: Buffer) => {
      buf += d.toString();
      const line = buf.split("\n").find((l) => l.includes('"collector listening"') && !l.includes('"worker":'));
      if (line) {
        clearTimeout(timer);
        resolve(String((JSON.parse(line) as { url: string }).url));
      }
    });
  });
  return { url, stderr: buf };
}

function twoTraces(a: string, b: string): Uint8Array {
  const req = makeRequest(a, b);
  return encodeTraceRequest(req);
}

beforeAll(async () => {
  if (!existsSync(path.join(root, "collector", "dist", "bundle", "main.js"))) throw new Error("collector/dist/bundle is missing: run `npm run build`");
  await ensureBroker();
  admin = testAdmin();
});

afterAll(async () => {
  for (const c of children) c.kill("SIGTERM");
  await Promise.all(children.map((c) => new Promise<void>((r) => (c.exitCode !== null || c.signalCode !== null ? r() : c.once("exit", () => r())))));
  await dropTopics(
    admin,
    topics.flatMap((t) => [t, `${t}.dlq`]),
  );
  await admin.close();
});

describe("the stand-alone collector (bundle)", () => {
  it("runs the bundle, creates its topics and writes one record per trace on the Java client's partition", async () => {
    const topic = `ragmeter.test.bundle.${hex(6)}`;
    topics.push(topic);
    const { url, stderr } = await startBin({ KAFKA_BROKERS: BROKER, RAGMETER_TOPIC: topic, RAGMETER_KAFKA_CREATE_TOPICS: "true", RAGMETER_KAFKA_TOPIC_PARTITIONS: "3" });
    expect(stderr).not.toContain("running the unbundled");
    // Before it listens, the process returned the pages only its start used (node's binary: 30 MiB and more).
    const released = stderr.split("\n").find((l) => l.includes('"startup pages released"'));
    expect(released, stderr).toBeDefined();
    const pages = JSON.parse(released ?? "{}") as { released_mib: number; failed: number };
    expect(pages.released_mib).toBeGreaterThan(10);
    expect(pages.failed).toBe(0);
    expect(stderr.indexOf('"startup pages released"')).toBeLessThan(stderr.indexOf('"collector listening"'));
    const [a, b] = [hex(16), hex(16)];
    const res = await post(`${url}/v1/traces`, twoTraces(a, b), PB);
    expect(res.status).toBe(200);
    expect([await partitionCount(admin, topic), await partitionCount(admin, `${topic}.dlq`)]).toEqual([3, 3]);
    const got = await consume(topic, (m) => m.length >= 2);
    expect(got.map((m) => m.key).sort()).toEqual([a, b].sort());
    for (const m of got) expect([m.key, m.partition]).toEqual([m.key, javaPartition(m.key ?? "", 3)]);
    const placed = await topicOffsets(admin, topic);
    for (const key of [a, b]) expect(placed.find((o) => o.partition === javaPartition(key, 3))?.high ?? 0n).toBeGreaterThan(0n);

    // partialSuccess: a span with an all-zero trace id is rejected, the others are delivered
    const req = makeRequest();
    req.resourceSpans[0]!.scopeSpans[0]!.spans.push(makeSpan("0".repeat(32)));
    const partial = await post(`${url}/v1/traces`, encodeTraceRequest(req), PB);
    expect(partial.status).toBe(200);
    const ps = decodeExportResponse("traces", partial.body);
    expect(ps?.rejected).toBe(1n);
    expect(ps?.errorMessage).toMatch(/traceId: must not be all zeros/);

    expect((await post(`${url}/v1/traces`, "x", { "content-type": "text/plain" })).status).toBe(415);
    const bad = await post(`${url}/v1/traces`, Buffer.from([0x0a, 0xff, 0x01]), PB);
    expect(bad.status).toBe(400);
    expect(decodeErrorStatus(bad.body).message).not.toBe("");
  });

  it("answers 503 with Retry-After when Kafka cannot be reached", async () => {
    const { url } = await startBin({ KAFKA_BROKERS: "127.0.0.1:1", RAGMETER_TOPIC: `ragmeter.test.bundle.${hex(6)}`, RAGMETER_KAFKA_SEND_TIMEOUT_MS: "2000" });
    const res = await post(`${url}/v1/traces`, twoTraces(hex(16), hex(16)), PB);
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("2");
  });

  it("holds no web framework (node:http serves OTLP) and none of zod's locales (namespace import)", () => {
    type Meta = { outputs: Record<string, { inputs: Record<string, { bytesInOutput: number }> }> };
    const meta = JSON.parse(readFileSync(path.join(root, "collector", "dist", "bundle-meta.json"), "utf8")) as Meta;
    // Modules with code in some output chunk (the metafile lists tree-shaken modules too, with 0 bytes).
    const inputs = Object.values(meta.outputs).flatMap((o) =>
      Object.entries(o.inputs)
        .filter(([, i]) => i.bytesInOutput > 0)
        .map(([p]) => p),
    );
    expect(inputs.some((p) => p.includes("@platformatic/kafka"))).toBe(true); // the metafile is the bundle's
    expect(inputs.filter((p) => /node_modules\/(fastify|@fastify|find-my-way|avvio|light-my-request)\//.test(p))).toEqual([]);
    expect(inputs.filter((p) => /node_modules\/zod\/v4\/locales\/(?!en\.js)/.test(p))).toEqual([]);
  });

  it("forks the bundle's worker entry with --workers", async () => {
    const topic = `ragmeter.test.bundle.${hex(6)}`;
    topics.push(topic);
    const { url } = await startBin({ KAFKA_BROKERS: BROKER, RAGMETER_TOPIC: topic, RAGMETER_KAFKA_CREATE_TOPICS: "true", RAGMETER_COLLECTOR_WORKERS: "2" });
    const a = hex(16);
    expect((await post(`${url}/v1/traces`, twoTraces(a, hex(16)), PB)).status).toBe(200);
    const got = await consume(topic, (m) => m.some((x) => x.key === a));
    expect(got.some((m) => m.key === a)).toBe(true);
  });
});
