import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHeuristicJudge } from "../../core/src/judges/heuristic/heuristicJudge.js";
import type { KafkaAdmin } from "../../kafka/src/index.js";
import { buildOtelcol, checkGo, OtelcolScriptError, otelcolSettings, otelcolStatus, startOtelcol, stopOtelcol } from "../../scripts/otelcol/otelcol.mjs";
import { openStore, type Store } from "../../store/src/client.js";
import { migrate } from "../../store/src/migrations.js";
import { loadStreamConfig } from "../../stream/src/config.js";
import { type ScorerService, startScorerService } from "../../stream/src/service.js";
import { startChatServer } from "../conventions/servers.js";
import { BROKER, consume, ensureBroker, testAdmin } from "../helpers/collector-kafka-helpers.js";
import { rows, waitFor } from "../helpers/streaming.js";

// Issue #15, "Riding the OTel Collector": the real OpenTelemetry Collector (otlpreceiver →
// kafkaexporter, built by scripts/otelcol with its builder) sits in front of the scorer; a real
// instrumentation library (official @opentelemetry/instrumentation-openai, content as GenAI log
// events) exports through it; `--source otelcol` reads otlp_spans and otlp_logs as it writes them.

const root = path.resolve(import.meta.dirname, "../..");
const ANSWER = "Customers have 30 days to ask for a refund [chunk-10].";
const QUESTION = "How many days do customers have to ask for a refund?";

/** Why the test cannot run here (Go absent or too old and no cached build), or null. */
async function skipReason(): Promise<string | null> {
  if ((await otelcolStatus({ port: 1 })).built) return null;
  try {
    checkGo(otelcolSettings());
  } catch (err) {
    if (err instanceof OtelcolScriptError) return `the OpenTelemetry Collector is not built and cannot be: ${(err as Error).message}`;
    throw err;
  }
  return null;
}
const reason = await skipReason();
if (reason !== null) console.warn(`[scorer-otelcol] SKIPPED: ${reason}`);

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

describe.skipIf(reason !== null)("scorer --source otelcol behind the real OpenTelemetry Collector (issue #15)", () => {
  const suffix = randomUUID().slice(0, 8);
  const spansTopic = `ragmeter.test.otlp_spans.${suffix}`;
  const logsTopic = `ragmeter.test.otlp_logs.${suffix}`;
  const topics = [spansTopic, logsTopic, `${spansTopic}.dlq`, `${logsTopic}.dlq`];
  let port = 0;
  let home = "";
  let store: Store;
  let admin: KafkaAdmin;
  let chat: Awaited<ReturnType<typeof startChatServer>>;
  let svc: ScorerService | undefined;
  let started = false;

  beforeAll(async () => {
    await ensureBroker();
    // Cached after the first build; a cold build takes minutes (bench/README.md has the figures).
    const built = buildOtelcol(otelcolSettings(), (m: string) => console.log(`[otelcol] ${m}`));
    if (!built.cached) console.log(`[scorer-otelcol] built the OpenTelemetry Collector in ${built.seconds} s`);
    port = await freePort();
    await startOtelcol({ port, topic: spansTopic, logsTopic, brokers: BROKER.split(","), log: () => {} });
    started = true;
    home = await mkdtemp(path.join(tmpdir(), "ragmeter-scorer-otelcol-"));
    const base = await openStore({ kind: "embedded", home, database: "ragmeter" });
    const database = `t_${randomUUID().replace(/-/gu, "").slice(0, 12)}`;
    await migrate(base.client, database);
    store = { ...base, database };
    admin = testAdmin();
    chat = await startChatServer(ANSWER);
  }, 30 * 60_000);

  afterAll(async () => {
    await svc?.stop();
    if (started) await stopOtelcol({ port, log: () => {}, clean: true });
    await chat?.close();
    if (admin) {
      const existing = new Set(await admin.listTopics());
      const mine = topics.filter((t) => existing.has(t));
      if (mine.length > 0) await admin.deleteTopics({ topics: mine });
      await admin.close();
    }
    await store?.close();
    if (home) await rm(home, { recursive: true, force: true });
  });

  it("a trace exported by a real instrumentation library through the collector is stored and scored: question and answer from otlp_logs, retrieval from otlp_spans, records without ragmeter headers", async () => {
    // The scorer starts first, before the collector's first export: it creates the topics.
    const stream = loadStreamConfig(
      { KAFKA_BROKERS: BROKER, RAGMETER_OTLP_SPANS_TOPIC: spansTopic, RAGMETER_OTLP_LOGS_TOPIC: logsTopic, RAGMETER_QUIET_MS: "1000", RAGMETER_KAFKA_SESSION_TIMEOUT_MS: "6000" },
      { source: "otelcol" },
    );
    expect(stream.topics).toEqual([
      { topic: spansTopic, signal: "traces" },
      { topic: logsTopic, signal: "logs" },
    ]);
    svc = await startScorerService({
      store,
      stream,
      consume: true,
      log: { info: () => {}, warn: () => {}, error: () => {} },
      scoring: { judge: createHeuristicJudge(), ks: [1, 5], quietMs: 1000, liveSampleRate: 1, concurrency: 4, batchSize: 100 },
      intervalMs: 200,
      consumer: { maxWaitTimeMs: 200 },
    });

    const child = spawn(process.execPath, [path.join(root, "tests/conventions/drivers/otel-genai-logs.mjs")], {
      cwd: root,
      env: { ...process.env, RAGMETER_TEST_OTLP_URL: `http://127.0.0.1:${port}`, OPENAI_BASE_URL: chat.baseURL, OPENAI_API_KEY: "test-key" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (c: Buffer) => (output += c.toString()));
    child.stderr.on("data", (c: Buffer) => (output += c.toString()));
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    expect(code, `driver failed:\n${output}`).toBe(0);

    await waitFor(async () => (await rows(store, "SELECT 1 FROM DB.interactions FINAL")).length > 0, 60_000);
    const inter = await rows<{ trace_id: string; status: string; question: string; answer: string; n: string }>(
      store,
      "SELECT trace_id, status, question, answer, length(retrieved) AS n FROM DB.interactions FINAL",
    );
    expect(inter).toHaveLength(1);
    expect(inter[0]).toMatchObject({ status: "ok", question: QUESTION, answer: ANSWER, n: "12" });
    const t = inter[0]?.trace_id as string;
    const logs = await rows<{ event_name: string }>(store, "SELECT event_name FROM DB.logs FINAL WHERE trace_id = {t:String} ORDER BY event_name", { t });
    expect(logs.map((l) => l.event_name)).toEqual(expect.arrayContaining(["gen_ai.choice", "gen_ai.user.message"]));
    // recall@k has no golden item on live traffic; grounding is judged: one score per metric key.
    const scores = await rows<{ metric: string; c: string }>(
      store,
      "SELECT metric, count() AS c FROM DB.scores FINAL WHERE trace_id = {t:String} GROUP BY metric ORDER BY metric",
      { t },
    );
    expect(scores.find((s) => s.metric === "grounding")?.c).toBe("1");

    // What the collector wrote: otlp_proto, keyed by the trace id, no ragmeter headers.
    const seen = (await consume(spansTopic, (m) => m.length > 0, 20_000)).map((m) => ({ key: String(m.key), headers: Object.keys(m.headers) }));
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((m) => !m.headers.some((h) => h.startsWith("ragmeter-")))).toBe(true);
    expect(new Set(seen.map((m) => m.key.toLowerCase()))).toEqual(new Set([t]));
  }, 120_000);
});
