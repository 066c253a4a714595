import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BytesProducer, committedOffsets, topicOffsets } from "../../kafka/src/index.js";
import { openStore } from "../../store/src/client.js";
import { BROKER, createTopic, ensureBroker, testAdmin, testProducer } from "../helpers/collector-kafka-helpers.js";
import { protobufOf, ragSpans, traceId, traceRequest } from "../helpers/ragTrace.js";
import { DOCS as docs, rows, sender, sleep, waitFor } from "../helpers/streaming.js";

// A file of its own: the scorer child owns the embedded store while it runs (one data directory
// per process), and this test process opens it only after the child has stopped.
const root = path.resolve(import.meta.dirname, "../..");
let producer: BytesProducer;
beforeAll(async () => {
  await ensureBroker();
  producer = testProducer();
});
afterAll(async () => {
  await producer?.close();
});

const send = (topic: string, key: string, value: Uint8Array | Buffer, signal = "traces") => sender(producer)(topic, key, value, signal);

describe("kill -9 of the scorer mid-stream, then restart", () => {
  it("every distinct trace id sent is scored exactly once in effect, none lost", async () => {
    const killHome = await mkdtemp(path.join(tmpdir(), "ragmeter-kill-"));
    const { topic, drop } = await createTopic(3);
    const group = `g-${randomUUID()}`;
    const env = {
      ...process.env,
      KAFKA_BROKERS: BROKER,
      RAGMETER_TOPIC: topic,
      RAGMETER_SCORER_GROUP: group,
      RAGMETER_QUIET_MS: "500",
      RAGMETER_KAFKA_SESSION_TIMEOUT_MS: "6000",
      OPENAI_BASE_URL: "",
    };
    const start = () => spawn(process.execPath, [path.join(root, "scorer/bin/ragmeter.js"), "scorer", "--home", killHome], { env, stdio: "ignore" });
    const ids: string[] = [];
    const admin = testAdmin();
    try {
      let child = start();
      const total = 300;
      for (let n = 0; n < total; n++) {
        const t = traceId();
        ids.push(t);
        const { retrieval, generation } = ragSpans({ traceId: t, question: `question ${n}?`, docs, answer: "PostgreSQL listens on port 5432." });
        await send(topic, t, protobufOf(traceRequest([retrieval, generation])));
        if (n === 150) {
          // Kill only once the first scorer has committed part of the stream: a real mid-stream crash.
          await waitFor(async () => [...(await committedOffsets(admin, group, topic)).values()].some((o) => o > 0n));
          child.kill("SIGKILL");
          await new Promise((r) => child.once("exit", r));
          child = start();
        }
      }
      // Wait until the group has committed everything, then for the quiet window and a scoring pass.
      await waitFor(async () => {
        const [high, committed] = await Promise.all([topicOffsets(admin, topic), committedOffsets(admin, group, topic)]);
        return high.every((p) => committed.get(p.partition) === p.high);
      }, 60_000);
      await sleep(3000);
      child.kill("SIGTERM");
      await new Promise((r) => child.once("exit", r));
      const store = await openStore({ kind: "embedded", home: killHome, database: "ragmeter" });
      try {
        const scored = await rows<{ trace_id: string }>(store, "SELECT DISTINCT trace_id FROM DB.scores FINAL WHERE metric = 'relevance'");
        expect(scored.length).toBe(total);
        expect(new Set(scored.map((r) => r.trace_id))).toEqual(new Set(ids));
        expect(await rows(store, "SELECT trace_id, metric FROM DB.scores FINAL GROUP BY trace_id, metric HAVING count() != 1")).toEqual([]);
        expect(await rows(store, "SELECT count() AS c FROM DB.interactions FINAL")).toEqual([{ c: String(total) }]);
      } finally {
        await store.close();
      }
    } finally {
      await admin.close();
      await drop();
    }
  }, 120_000);
});
