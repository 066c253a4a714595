import { describe, expect, it } from "vitest";
import { loadStreamConfig } from "../../stream/src/config.js";

describe("streaming scorer config: source, topics, creation, backlog bound (issue #15)", () => {
  it("defaults: ragmeter's topic with the signal from the header, create with 3 partitions, 50,000 pending", () => {
    const c = loadStreamConfig({});
    expect([c.source, c.topics, c.createTopics, c.partitions, c.maxPending]).toEqual(["ragmeter", [{ topic: "ragmeter.spans", signal: null }], true, 3, 50_000]);
  });

  it("otelcol: the OpenTelemetry Collector's two topics, each naming its signal; RAGMETER_TOPIC is not read", () => {
    const c = loadStreamConfig({ RAGMETER_SOURCE: "otelcol", RAGMETER_TOPIC: "mine", RAGMETER_OTLP_LOGS_TOPIC: "events" });
    expect(c.topics).toEqual([
      { topic: "otlp_spans", signal: "traces" },
      { topic: "events", signal: "logs" },
    ]);
  });

  it("the --source flag wins over RAGMETER_SOURCE; RAGMETER_KAFKA_CREATE_TOPICS=false and partitions parse", () => {
    const c = loadStreamConfig({ RAGMETER_SOURCE: "otelcol", RAGMETER_KAFKA_CREATE_TOPICS: "false", RAGMETER_KAFKA_TOPIC_PARTITIONS: "6" }, { source: "ragmeter" });
    expect([c.source, c.createTopics, c.partitions]).toEqual(["ragmeter", false, 6]);
  });

  it("V8 heap growth of the scorer: 50 % by default, RAGMETER_SCORER_HEAP_GROWTH_PERCENT sets it, 0 leaves V8's own", () => {
    expect(loadStreamConfig({}).heapGrowthPercent).toBe(50);
    expect(loadStreamConfig({ RAGMETER_SCORER_HEAP_GROWTH_PERCENT: "0" }).heapGrowthPercent).toBe(0);
    expect(loadStreamConfig({ RAGMETER_SCORER_HEAP_GROWTH_PERCENT: "20" }).heapGrowthPercent).toBe(20);
    expect(() => loadStreamConfig({ RAGMETER_SCORER_HEAP_GROWTH_PERCENT: "-1" })).toThrow(/^environment variable RAGMETER_SCORER_HEAP_GROWTH_PERCENT: /u);
    expect(() => loadStreamConfig({ RAGMETER_SCORER_HEAP_GROWTH_PERCENT: "2.5" })).toThrow(/^environment variable RAGMETER_SCORER_HEAP_GROWTH_PERCENT: /u);
  });

  it("span write batches: defaults, each bound from its variable, bad values named (issue 38)", () => {
    expect(loadStreamConfig({}).writeBatch).toEqual({ maxCount: 20_000, maxBytes: 8 * 1024 * 1024, maxWaitMs: 50, gapMs: 10 });
    const c = loadStreamConfig({
      RAGMETER_SCORER_WRITE_MAX_SPANS: "500",
      RAGMETER_SCORER_WRITE_MAX_BYTES: "1048576",
      RAGMETER_SCORER_WRITE_MAX_WAIT_MS: "0",
      RAGMETER_SCORER_WRITE_GAP_MS: "3",
    });
    expect(c.writeBatch).toEqual({ maxCount: 500, maxBytes: 1_048_576, maxWaitMs: 0, gapMs: 3 });
    expect(() => loadStreamConfig({ RAGMETER_SCORER_WRITE_GAP_MS: "-1" })).toThrow(/^environment variable RAGMETER_SCORER_WRITE_GAP_MS: /u);
    expect(() => loadStreamConfig({ RAGMETER_SCORER_WRITE_MAX_SPANS: "0" })).toThrow(/^environment variable RAGMETER_SCORER_WRITE_MAX_SPANS: /u);
    expect(() => loadStreamConfig({ RAGMETER_SCORER_WRITE_MAX_BYTES: "8MiB" })).toThrow(/^environment variable RAGMETER_SCORER_WRITE_MAX_BYTES: /u);
    expect(() => loadStreamConfig({ RAGMETER_SCORER_WRITE_MAX_WAIT_MS: "-5" })).toThrow(/^environment variable RAGMETER_SCORER_WRITE_MAX_WAIT_MS: /u);
    expect(loadStreamConfig({}).batchWaitMs).toBe(1000);
    expect(loadStreamConfig({ RAGMETER_SCORER_BATCH_MAX_WAIT_MS: "0" }).batchWaitMs).toBe(0);
    expect(() => loadStreamConfig({ RAGMETER_SCORER_BATCH_MAX_WAIT_MS: "soon" })).toThrow(/^environment variable RAGMETER_SCORER_BATCH_MAX_WAIT_MS: /u);
  });

  it("bad values are one-line errors naming the variable or the flag", () => {
    expect(() => loadStreamConfig({ RAGMETER_KAFKA_TOPIC_PARTITIONS: "0" })).toThrow(/^environment variable RAGMETER_KAFKA_TOPIC_PARTITIONS: /u);
    expect(() => loadStreamConfig({ RAGMETER_SCORER_MAX_PENDING: "many" })).toThrow(/^environment variable RAGMETER_SCORER_MAX_PENDING: /u);
    expect(() => loadStreamConfig({}, { source: "jaeger" })).toThrow(/^flag --source: /u);
  });
});
