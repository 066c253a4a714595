import { type ChildProcess, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BytesProducer, committedOffsets, type KafkaAdmin, topicOffsets } from "../../kafka/src/index.js";
import { SIGNAL_HEADER } from "../../otlp/src/index.js";
import { openStore } from "../../store/src/client.js";
import { BROKER, createTopic, ensureBroker, testAdmin, testProducer } from "../helpers/collector-kafka-helpers.js";
import { protobufOf, ragSpans, traceId, traceRequest } from "../helpers/ragTrace.js";
import { DOCS as docs, rows, sleep, waitFor } from "../helpers/streaming.js";

// Several scorers, one store (issue 38, design §11): `ragmeter scorer` processes in one consumer
// group on a topic of 6 partitions, all writing one ClickHouse over HTTP — the test front over the
// embedded engine (scripts/clickhouse-front), a process of its own, in the place of a server. One
// scorer is SIGKILLed and one added while traces arrive. Parallel-safe: its own topic, consumer
// group, temporary directories and ports (the front and the scorers pick none but the front's free one).
const root = path.resolve(import.meta.dirname, "../..");
const children: ChildProcess[] = [];
let producer: BytesProducer;
let admin: KafkaAdmin;
let dir: string;
beforeAll(async () => {
  await ensureBroker();
  producer = testProducer();
  admin = testAdmin();
  dir = await mkdtemp(path.join(tmpdir(), "ragmeter-scaleout-"));
});
afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
  await producer?.close();
  await admin?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Starts a process and resolves with it once a line of its output matches `ready` (its stderr or stdout). */
function startUntil(args: string[], env: NodeJS.ProcessEnv, ready: RegExp, timeoutMs = 30_000): Promise<{ child: ChildProcess; line: string; output: () => string }> {
  const child = spawn(process.execPath, args, { env, stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  let out = "";
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`not ready in ${timeoutMs} ms: ${args.join(" ")}\n${out.slice(-2000)}`)), timeoutMs);
    const onData = (d: Buffer) => {
      out += d.toString();
      const m = out.split("\n").find((l) => ready.test(l));
      if (m !== undefined) {
        clearTimeout(timer);
        resolve({ child, line: m, output: () => out });
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`exited ${code} before ready: ${args.join(" ")}\n${out.slice(-2000)}`));
    });
  });
}

const members = async (group: string): Promise<{ state: string; members: number }> => {
  const g = (await admin.describeGroups({ groups: [group] })).get(group);
  return { state: String(g?.state ?? "").toUpperCase(), members: g?.members.size ?? 0 };
};

describe("two and three scorer processes on one store over HTTP", () => {
  it("SIGKILL of one and a new one mid-load: every trace stored and scored once, none lost", async () => {
    const front = await startUntil(
      [path.join(root, "scripts/clickhouse-front/front.mjs"), "--path", path.join(dir, "store"), "--quiet"],
      process.env,
      /clickhouse front listening/u,
    );
    const url = /listening (http:\/\/\S+)/u.exec(front.line)?.[1] ?? "";
    const { topic, drop } = await createTopic(6);
    const group = `g-scaleout-${randomUUID()}`;
    const database = `scaleout_${process.pid}`;
    const env = (name: string): NodeJS.ProcessEnv => ({
      ...process.env,
      CLICKHOUSE_URL: url,
      CLICKHOUSE_DATABASE: database,
      RAGMETER_HOME: path.join(dir, name),
      KAFKA_BROKERS: BROKER,
      RAGMETER_TOPIC: topic,
      RAGMETER_SCORER_GROUP: group,
      RAGMETER_QUIET_MS: "500",
      RAGMETER_KAFKA_SESSION_TIMEOUT_MS: "6000",
      OPENAI_BASE_URL: "",
    });
    const scorer = (name: string) => startUntil([path.join(root, "scorer/bin/ragmeter.js"), "scorer"], env(name), /scorer running/u, 60_000);
    const send = (ids: string[]) =>
      producer.send({
        messages: ids.map((t, n) => {
          const { retrieval, generation } = ragSpans({ traceId: t, question: `question ${t.slice(0, 6)} ${n}?`, docs, answer: "PostgreSQL listens on port 5432." });
          return {
            topic,
            key: Buffer.from(t),
            value: Buffer.from(protobufOf(traceRequest([retrieval, generation]))),
            headers: new Map([[Buffer.from(SIGNAL_HEADER), Buffer.from("traces")]]),
          };
        }),
      });
    try {
      // Two scorers first (the first one migrates the store; the second finds it migrated).
      const a = await scorer("a");
      const b = await scorer("b");
      await waitFor(async () => {
        const g = await members(group);
        return g.state === "STABLE" && g.members === 2;
      }, 30_000);
      const ids: string[] = [];
      const rounds = 30;
      const perRound = 30;
      let c: Awaited<ReturnType<typeof scorer>> | null = null;
      for (let r = 0; r < rounds; r++) {
        const round = Array.from({ length: perRound }, () => traceId());
        ids.push(...round);
        await send(round);
        if (r === 8) {
          // Killed once the group has committed part of the stream: a crash mid-stream, records of
          // its partitions written and not yet committed, traces written and not yet scored.
          await waitFor(async () => [...(await committedOffsets(admin, group, topic)).values()].filter((o) => o > 0n).length >= 3);
          a.child.kill("SIGKILL");
          await new Promise((res) => a.child.once("exit", res));
        }
        if (r === 16) c = await scorer("c");
        await sleep(150);
      }
      const total = ids.length;
      // Everything committed by the group (the new scorer and the survivor), then a scoring pass.
      await waitFor(async () => {
        const [high, committed] = await Promise.all([topicOffsets(admin, topic), committedOffsets(admin, group, topic)]);
        return high.every((p) => committed.get(p.partition) === p.high);
      }, 60_000);
      const store = await openStore({ kind: "server", url, database });
      try {
        await waitFor(async () => (await rows<{ c: string }>(store, "SELECT count() AS c FROM DB.interactions FINAL"))[0]?.c === String(total), 30_000);
        const [spans] = await rows<{ rows: string; keys: string; traces: string }>(
          store,
          "SELECT count() AS rows, uniqExact(trace_id, span_id) AS keys, uniqExact(trace_id) AS traces FROM DB.spans",
        );
        const [final] = await rows<{ c: string }>(store, "SELECT count() AS c FROM DB.spans FINAL");
        const scored = await rows<{ trace_id: string }>(store, "SELECT DISTINCT trace_id FROM DB.scores FINAL WHERE metric = 'relevance'");
        const doubles = await rows(store, "SELECT trace_id, metric FROM DB.scores FINAL GROUP BY trace_id, metric HAVING count() != 1");
        const [scoreRows] = await rows<{ rows: string; final: string }>(store, "SELECT (SELECT count() FROM DB.scores) AS rows, (SELECT count() FROM DB.scores FINAL) AS final");
        const [metrics] = await rows<{ m: string; t: string }>(store, "SELECT uniqExact(metric) AS m, uniqExact(trace_id) AS t FROM DB.scores FINAL");
        // The figures of the run (the report of issue 38 quotes them).
        console.log(
          `scale-out kill test: sent ${total} traces (${2 * total} spans); spans stored ${final?.c} after FINAL (${spans?.rows} rows written, ${Number(spans?.rows) - Number(final?.c)} written twice across the kill and rebalances); traces scored ${scored.length}; score rows ${scoreRows?.final} after FINAL (${scoreRows?.rows} written); double counts ${doubles.length}`,
        );
        expect(final?.c).toBe(String(2 * total));
        expect(spans?.keys).toBe(String(2 * total));
        expect(spans?.traces).toBe(String(total));
        expect(new Set(scored.map((s) => s.trace_id))).toEqual(new Set(ids));
        expect(doubles).toEqual([]);
        // One row per trace × metric, every trace the same metrics.
        expect(scoreRows?.final).toBe(String(Number(metrics?.m) * total));
        expect(metrics?.t).toBe(String(total));
        const [interactions] = await rows<{ c: string; d: string }>(store, "SELECT count() AS c, uniqExact(trace_id) AS d FROM DB.interactions FINAL");
        expect(interactions).toEqual({ c: String(total), d: String(total) });
      } finally {
        await store.close();
      }
      // The new scorer took a share of the partitions, and the survivor kept running.
      expect(b.child.exitCode).toBeNull();
      expect(c?.child.exitCode).toBeNull();
      expect(await members(group)).toEqual({ state: "STABLE", members: 2 });
      // Stopped, the two flush their counters: what each scored (the killed one's last minute is lost with it).
      for (const s of [b, c]) s?.child.kill("SIGTERM");
      await Promise.all([b, c].map((s) => (s && s.child.exitCode === null ? new Promise((res) => s.child.once("exit", res)) : undefined)));
      const after = await openStore({ kind: "server", url, database });
      try {
        const perScorer = await rows<{ scorer_id: string; scored: string }>(
          after,
          "SELECT scorer_id, sum(traces_scored) AS scored FROM DB.ingestion_stats FINAL GROUP BY scorer_id ORDER BY scorer_id",
        );
        console.log(`scale-out kill test: traces scored per scorer (ingestion_stats): ${perScorer.map((r) => `${r.scorer_id} ${r.scored}`).join(", ")}`);
        expect(perScorer.length).toBeGreaterThanOrEqual(2);
      } finally {
        await after.close();
      }
    } finally {
      for (const ch of children) if (ch.exitCode === null && ch.signalCode === null) ch.kill("SIGTERM");
      await Promise.all(children.map((ch) => (ch.exitCode === null && ch.signalCode === null ? new Promise((res) => ch.once("exit", res)) : undefined)));
      await drop();
    }
  }, 150_000);
});
