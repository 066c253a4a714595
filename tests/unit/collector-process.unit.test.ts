// The collector's process plumbing: one commander definition, the pino logger, the shutdown helper.
import { Command } from "commander";
import { describe, expect, it } from "vitest";
import { registerCollectorCommand } from "../../collector/src/command.js";
import { loadCollectorConfig } from "../../collector/src/config.js";
import { CollectorConfigError } from "../../collector/src/errors.js";
import type { RecordSink } from "../../collector/src/kafka-sink.js";
import { startCollector } from "../../collector/src/server.js";
import { createJsonLogger, createLogger } from "../../runtime/src/logger.js";
import { untilShutdown } from "../../runtime/src/shutdown.js";

function lines(): { out: string[]; destination: { write(line: string): void } } {
  const out: string[] = [];
  return { out, destination: { write: (line: string) => void out.push(line) } };
}

describe("ragmeter collector command", () => {
  it("registers `collector` with --port, --host, --brokers, --topic, --workers", () => {
    const program = new Command("ragmeter");
    const cmd = registerCollectorCommand(program);
    expect(cmd.name()).toBe("collector");
    expect(cmd.options.map((o) => o.long)).toEqual(["--port", "--host", "--brokers", "--topic", "--workers"]);
    expect(program.commands).toEqual([cmd]);
  });

  it("validates flags through the configuration schema (CollectorConfigError names the flag)", async () => {
    const program = new Command("ragmeter").exitOverride();
    let done = false;
    registerCollectorCommand(program, {
      env: {},
      onDone: () => {
        done = true;
      },
    });
    const run = program.parseAsync(["collector", "--port", "70000", "--brokers", "nohost"], { from: "user" });
    await expect(run).rejects.toThrow(CollectorConfigError);
    await expect(run).rejects.toThrow(/flag --port.*flag --brokers|flag --brokers.*flag --port/);
    expect(done).toBe(false);
  });
});

describe("collector logger (pino)", () => {
  it("writes one JSON object per line with level label, component, fields (bigint as text) and msg", () => {
    const { out, destination } = lines();
    const log = createLogger({ level: "info", component: "test", destination });
    log.debug({ a: 1 }, "dropped");
    log.warn({ rejected: 2n ** 64n - 1n, err: new Error("boom") }, "partial");
    expect(out).toHaveLength(1);
    const entry = JSON.parse(out[0]!) as Record<string, unknown>;
    expect(entry).toMatchObject({ level: "warn", component: "test", rejected: "18446744073709551615", err: "boom", msg: "partial" });
    expect(Number.isNaN(Date.parse(String(entry["time"])))).toBe(false);
  });

  it("message-first view for the scorer's components, over the same pino instance", () => {
    const { out, destination } = lines();
    const log = createJsonLogger(destination as unknown as NodeJS.WritableStream, "info", "serve");
    log.info("serve running", { otlp: "http://x" });
    expect(JSON.parse(out[0]!)).toMatchObject({ level: "info", component: "serve", otlp: "http://x", msg: "serve running" });
    expect(typeof log.pino.child).toBe("function");
  });
});

describe("untilShutdown", () => {
  it("resolves with abort when the signal aborts, and removes its SIGTERM/SIGINT listeners", async () => {
    const before = [process.listenerCount("SIGTERM"), process.listenerCount("SIGINT")];
    const ac = new AbortController();
    const p = untilShutdown(ac.signal);
    expect([process.listenerCount("SIGTERM"), process.listenerCount("SIGINT")]).toEqual([before[0]! + 1, before[1]! + 1]);
    ac.abort();
    await expect(p).resolves.toBe("abort");
    expect([process.listenerCount("SIGTERM"), process.listenerCount("SIGINT")]).toEqual(before);
  });

  it("resolves at once for an already aborted signal", async () => {
    await expect(untilShutdown(AbortSignal.abort())).resolves.toBe("abort");
  });
});

describe("collector listening log line", () => {
  it("names Kafka's topic and brokers only when the collector sends to Kafka; an injected sink is 'in process'", async () => {
    const sent: number[] = [];
    const sink: RecordSink = {
      send: async (_signal, records) => void sent.push(records.length),
      ready: async () => true,
      degraded: () => false,
      close: async () => undefined,
    };
    const config = loadCollectorConfig({}, { port: 0, host: "127.0.0.1", brokers: "127.0.0.1:9092" });
    const listening = async (deps: { sink?: RecordSink }): Promise<Record<string, unknown>> => {
      const { out, destination } = lines();
      const c = await startCollector(config, { ...deps, logger: createLogger({ level: "info", component: "serve", destination }) });
      await c.close();
      const entry = out.map((l) => JSON.parse(l) as Record<string, unknown>).find((e) => e["msg"] === "collector listening");
      expect(entry, out.join("")).toBeDefined();
      return entry as Record<string, unknown>;
    };
    const inProcess = await listening({ sink });
    expect(inProcess).toMatchObject({ sink: "in process" });
    expect(inProcess).not.toHaveProperty("brokers");
    expect(inProcess).not.toHaveProperty("topic");
    expect(await listening({})).toMatchObject({ topic: "ragmeter.spans", brokers: ["127.0.0.1:9092"] });
    expect(sent).toEqual([]);
  });
});
