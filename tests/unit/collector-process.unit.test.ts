// The collector's process plumbing: one commander definition, the pino logger, the shutdown helper.
import { Command } from "commander";
import { describe, expect, it, vi } from "vitest";
import { registerCollectorCommand } from "../../collector/src/command.js";
import { loadCollectorConfig } from "../../collector/src/config.js";
import { CollectorConfigError } from "../../collector/src/errors.js";
import type { RecordSink } from "../../collector/src/kafka-sink.js";
import { startCollector } from "../../collector/src/server.js";
import { COLLECTOR_NODE_FLAGS, type ExecHost, execCollectorBundle } from "../../collector/src/tuning.js";
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

/** A process whose execve records its call and throws (a real one never returns). */
function fakeHost(
  bundle: { path: string } | { why: string },
  withExecve = true,
): ExecHost & { calls: { file: string; args: readonly string[]; env: Record<string, string | undefined> }[] } {
  const calls: { file: string; args: readonly string[]; env: Record<string, string | undefined> }[] = [];
  const execve = (file: string, args: readonly string[] = [], env: Record<string, string | undefined> = {}): never => {
    calls.push({ file, args, env });
    throw new Error("exec'd");
  };
  return { execPath: "/opt/node/bin/node", calls, collectorBundle: () => bundle, ...(withExecve ? { execve } : {}) };
}

describe("`ragmeter collector` runs the bundle with its Node settings (issue 31)", () => {
  it("replaces the process with node <flags> <bundle> <args>, MALLOC_ARENA_MAX=2 unless the environment sets it", () => {
    const host = fakeHost({ path: "/pkg/dist/bundle/main.js" });
    expect(() => execCollectorBundle(["--port", "4319"], { KAFKA_BROKERS: "k:9092", NODE_OPTIONS: "--max-old-space-size=200", UNSET: undefined }, host)).toThrow("exec'd");
    expect(host.calls).toEqual([
      {
        file: "/opt/node/bin/node",
        args: ["/opt/node/bin/node", "--max-semi-space-size=4", "/pkg/dist/bundle/main.js", "--port", "4319"],
        env: { MALLOC_ARENA_MAX: "2", KAFKA_BROKERS: "k:9092", NODE_OPTIONS: "--max-old-space-size=200" },
      },
    ]);
    expect(COLLECTOR_NODE_FLAGS).toEqual(["--max-semi-space-size=4"]);
    const own = fakeHost({ path: "/b.js" });
    expect(() => execCollectorBundle([], { MALLOC_ARENA_MAX: "1" }, own)).toThrow("exec'd");
    expect(own.calls[0]?.env).toEqual({ MALLOC_ARENA_MAX: "1" });
    // runtime tuning off: the same bundle with Node's and glibc's defaults
    const off = fakeHost({ path: "/b.js" });
    expect(() => execCollectorBundle(["--port", "1"], { RAGMETER_RUNTIME_TUNING: "off" }, off)).toThrow("exec'd");
    expect(off.calls[0]).toEqual({ file: "/opt/node/bin/node", args: ["/opt/node/bin/node", "/b.js", "--port", "1"], env: { RAGMETER_RUNTIME_TUNING: "off" } });
  });

  it("says why not when there is no bundle or no execve (the caller then runs in process)", () => {
    expect(execCollectorBundle([], {}, fakeHost({ why: "the collector's bundle (collector/dist/bundle) is missing" }))).toBe(
      "the collector's bundle (collector/dist/bundle) is missing",
    );
    expect(execCollectorBundle([], {}, fakeHost({ path: "/b.js" }, false))).toMatch(/^this Node has no process\.execve/u);
  });

  it("the command passes its flags on, and checks them first (a bad flag never execs)", async () => {
    const host = fakeHost({ path: "/b.js" });
    const program = new Command("ragmeter").exitOverride();
    registerCollectorCommand(program, { env: { RAGMETER_TOPIC: "t" }, execBundle: host });
    await expect(program.parseAsync(["collector", "--port", "4320", "--topic", "spans.x"], { from: "user" })).rejects.toThrow("exec'd");
    expect(host.calls.map((c) => c.args.slice(3))).toEqual([["--port", "4320", "--topic", "spans.x"]]);
    expect(host.calls[0]?.env).toEqual({ MALLOC_ARENA_MAX: "2", RAGMETER_TOPIC: "t" });

    const bad = fakeHost({ path: "/b.js" });
    const p2 = new Command("ragmeter").exitOverride();
    registerCollectorCommand(p2, { env: {}, execBundle: bad });
    await expect(p2.parseAsync(["collector", "--port", "70000"], { from: "user" })).rejects.toThrow(CollectorConfigError);
    expect(bad.calls).toEqual([]);

    // a deprecated name: the check before the exec says nothing, the bundle it becomes warns once
    const warned = vi.spyOn(process, "emitWarning").mockImplementation(() => undefined);
    try {
      const old = fakeHost({ path: "/b.js" });
      const p3 = new Command("ragmeter").exitOverride();
      registerCollectorCommand(p3, { env: { RAGMETER_CREATE_TOPICS: "0" }, execBundle: old });
      await expect(p3.parseAsync(["collector"], { from: "user" })).rejects.toThrow("exec'd");
      expect([old.calls.length, warned.mock.calls]).toEqual([1, []]);
    } finally {
      warned.mockRestore();
    }
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
