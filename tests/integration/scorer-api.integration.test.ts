import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LiveSummary } from "../../scorer/src/runs/live.js";
import { BROKER, createTopic, ensureBroker, testProducer } from "../helpers/collector-kafka-helpers.js";
import { protobufOf, ragSpans, traceId, traceRequest } from "../helpers/ragTrace.js";
import { DOCS as docs, sender } from "../helpers/streaming.js";

const bin = path.resolve(import.meta.dirname, "../../scorer/bin/ragmeter.js");
const TOKEN = "scorer-api-token";
const ragmeter = (args: string[]) => {
  const r = spawnSync(process.execPath, [bin, ...args], { encoding: "utf8", env: { PATH: process.env["PATH"] ?? "", RAGMETER_COLLECTOR_TOKEN: TOKEN } });
  return { code: r.status, out: r.stdout, err: r.stderr };
};

let home: string;
let scorer: ChildProcess;
let log = "";
let topic: { topic: string; drop: () => Promise<void> };

beforeAll(async () => {
  await ensureBroker();
  home = await mkdtemp(path.join(tmpdir(), "ragmeter-scorer-api-"));
  topic = await createTopic(1);
  scorer = spawn(process.execPath, [bin, "scorer", "--brokers", BROKER, "--quiet-ms", "500", "--api-port", "0", "--home", home], {
    env: { PATH: process.env["PATH"] ?? "", RAGMETER_COLLECTOR_TOKEN: TOKEN, RAGMETER_TOPIC: topic.topic, RAGMETER_SCORER_GROUP: `g-${randomUUID()}` },
    stdio: ["ignore", "ignore", "pipe"],
  });
  await new Promise<void>((resolve, reject) => {
    scorer.stderr?.on("data", (d: Buffer) => {
      log += d.toString();
      if (/"api":"http[^\n]*"msg":"scorer running"/u.test(log)) resolve();
    });
    scorer.on("exit", (c) => reject(new Error(`scorer exited with ${c}: ${log}`)));
  });
}, 60_000);

afterAll(async () => {
  if (scorer?.exitCode === null) {
    const exited = new Promise((r) => scorer.once("exit", r));
    scorer.kill("SIGTERM");
    await exited;
  }
  await topic?.drop();
});

describe("ragmeter scorer --api-port on the embedded store", () => {
  it("scores a trace from Kafka; live and runs from another process read it through the scorer's API", async () => {
    const producer = testProducer();
    const t = traceId();
    const { retrieval, generation } = ragSpans({ traceId: t, question: "Which port does Postgres listen on?", docs, answer: "PostgreSQL listens on port 5432." });
    await sender(producer)(topic.topic, t, protobufOf(traceRequest([retrieval, generation], "kafka-svc")));
    await producer.close();
    let s: LiveSummary;
    for (;;) {
      const r = ragmeter(["live", "--json", "--home", home]);
      expect(r.code, r.err).toBe(0);
      s = JSON.parse(r.out) as LiveSummary;
      if (s.traces_seen >= 1) break;
      await new Promise((res) => setTimeout(res, 300));
    }
    // The same trace in scorer-kafka.integration.test.ts: every claim backed by a chunk → grounding 1.
    expect(s.groups.map((g) => [g.service, g.traces_seen, g.traces_scored, g.metrics["grounding"]?.mean])).toEqual([["kafka-svc", 1, 1, 1]]);
    const runs = ragmeter(["runs", "--home", home]);
    expect(runs.code, runs.err).toBe(0);
    expect(runs.out).toMatch(/^no runs yet in http:\/\/127\.0\.0\.1:\d+ \(read API of the store's owner\)/u);
  }, 90_000);
});
