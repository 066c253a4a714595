import { readFileSync } from "node:fs";
import path from "node:path";
import {
  CollectorConfigError,
  CollectorError,
  KafkaUnavailableError,
  OverloadedError,
  PayloadTooLargeError,
  TopicMissingError,
  UnauthorizedError,
  WorkerStartError,
} from "@ragmeter/collector";
import { GoldenSetError } from "@ragmeter/golden";
import { KafkaConfigError, KafkaError } from "@ragmeter/kafka";
import { OtlpDecodeError, RecordDecodeError, UnsupportedMediaTypeError } from "@ragmeter/otlp";
import { RagmeterError, retry } from "@ragmeter/runtime";
import { describe, expect, it } from "vitest";
import { ConfigError } from "../../core/src/domain/errors.js";
import { JudgeCallError, JudgeConfigError } from "../../core/src/judges/errors.js";
import { ReadApiError } from "../../scorer/src/cli/api/errors.js";
import { UsageError } from "../../scorer/src/cli/evalCommand.js";
import { BrowserMissingError } from "../../scorer/src/cli/format/browser.js";
import { exitOn } from "../../scorer/src/cli/main.js";
import { CalibrationError } from "../../scorer/src/runs/calibrate/errors.js";
import { GateSyntaxError } from "../../scorer/src/runs/gate.js";
import { NothingToReplayError } from "../../scorer/src/runs/replay/replay.js";
import { ReplaySpecError } from "../../scorer/src/runs/replay/select.js";
import { TargetClientError } from "../../scorer/src/runs/targetClient.js";
import { EmbeddedEngineMissingError, StoreError, StoreInUseError, storeFailure } from "../../store/src/errors.js";
import { MigrationFileError } from "../../store/src/migrationFiles.js";
import { UndecodableMessageError } from "../../stream/src/ingest.js";

const root = path.resolve(import.meta.dirname, "../..");

/** Each row: an instance as the code builds it, and what design §14's table says of it. */
const TABLE: readonly [RagmeterError, { name: string; code: string; exitCode: number; retriable: boolean }][] = [
  [new UsageError("x"), { name: "UsageError", code: "usage", exitCode: 2, retriable: false }],
  [new GateSyntaxError("x"), { name: "GateSyntaxError", code: "usage", exitCode: 2, retriable: false }],
  [new ReplaySpecError("x"), { name: "ReplaySpecError", code: "usage", exitCode: 2, retriable: false }],
  [new NothingToReplayError("x"), { name: "NothingToReplayError", code: "usage", exitCode: 2, retriable: false }],
  [new ConfigError("x"), { name: "ConfigError", code: "config", exitCode: 2, retriable: false }],
  [new CollectorConfigError(["x"]), { name: "CollectorConfigError", code: "config", exitCode: 2, retriable: false }],
  [new KafkaConfigError([{ setting: "KAFKA_BROKERS", message: "x" }]), { name: "KafkaConfigError", code: "config", exitCode: 2, retriable: false }],
  [new JudgeConfigError("x"), { name: "JudgeConfigError", code: "config", exitCode: 2, retriable: false }],
  [new GoldenSetError("g.jsonl", 3, "question", "x"), { name: "GoldenSetError", code: "input", exitCode: 2, retriable: false }],
  [new CalibrationError("x"), { name: "CalibrationError", code: "input", exitCode: 2, retriable: false }],
  [new OtlpDecodeError("body", "x"), { name: "OtlpDecodeError", code: "input", exitCode: 2, retriable: false }],
  [new UnsupportedMediaTypeError("x"), { name: "UnsupportedMediaTypeError", code: "input", exitCode: 2, retriable: false }],
  [new RecordDecodeError("x"), { name: "RecordDecodeError", code: "input", exitCode: 2, retriable: false }],
  [new UndecodableMessageError("x"), { name: "UndecodableMessageError", code: "input", exitCode: 2, retriable: false }],
  [new PayloadTooLargeError("x"), { name: "PayloadTooLargeError", code: "input", exitCode: 2, retriable: false }],
  [new UnauthorizedError(), { name: "UnauthorizedError", code: "input", exitCode: 2, retriable: false }],
  [new OverloadedError("x"), { name: "OverloadedError", code: "unavailable", exitCode: 2, retriable: true }],
  [new KafkaUnavailableError("x"), { name: "KafkaUnavailableError", code: "unavailable", exitCode: 2, retriable: true }],
  [new TopicMissingError("t"), { name: "TopicMissingError", code: "unavailable", exitCode: 2, retriable: true }],
  [new CollectorError("x", 400, false), { name: "CollectorError", code: "input", exitCode: 2, retriable: false }],
  [new StoreInUseError(4242), { name: "StoreInUseError", code: "environment", exitCode: 2, retriable: false }],
  [new EmbeddedEngineMissingError(new Error("no chdb")), { name: "EmbeddedEngineMissingError", code: "environment", exitCode: 2, retriable: false }],
  [new MigrationFileError("x", true), { name: "MigrationFileError", code: "environment", exitCode: 2, retriable: false }],
  [new MigrationFileError("x"), { name: "MigrationFileError", code: "internal", exitCode: 2, retriable: false }],
  [new BrowserMissingError("x"), { name: "BrowserMissingError", code: "environment", exitCode: 2, retriable: false }],
  [new WorkerStartError("x"), { name: "WorkerStartError", code: "environment", exitCode: 2, retriable: false }],
  [new StoreError("x"), { name: "StoreError", code: "unavailable", exitCode: 2, retriable: false }],
  [new StoreError("x", true), { name: "StoreError", code: "unavailable", exitCode: 2, retriable: true }],
  [new KafkaError("x", "unreachable", true), { name: "KafkaError", code: "unavailable", exitCode: 2, retriable: true }],
  [new KafkaError("x", "authentication", false), { name: "KafkaError", code: "config", exitCode: 2, retriable: false }],
  [new KafkaError("x", "too-large", false), { name: "KafkaError", code: "input", exitCode: 2, retriable: false }],
  [new JudgeCallError("x", 503, true, 2_000), { name: "JudgeCallError", code: "unavailable", exitCode: 2, retriable: true }],
  [new JudgeCallError("x", 401, false, null), { name: "JudgeCallError", code: "config", exitCode: 2, retriable: false }],
  [new ReadApiError("x", null), { name: "ReadApiError", code: "unavailable", exitCode: 2, retriable: true }],
  [new ReadApiError("x", 503), { name: "ReadApiError", code: "unavailable", exitCode: 2, retriable: true }],
  [new ReadApiError("x", 401), { name: "ReadApiError", code: "unavailable", exitCode: 2, retriable: false }],
  [new TargetClientError("x"), { name: "TargetClientError", code: "internal", exitCode: 2, retriable: false }],
];

describe("one error root (design §14)", () => {
  it("every class extends RagmeterError with the code, exit code and retriable of the table", () => {
    for (const [err, want] of TABLE) {
      expect(err, want.name).toBeInstanceOf(RagmeterError);
      expect(err, want.name).toBeInstanceOf(Error);
      expect({ name: err.name, code: err.code, exitCode: err.exitCode, retriable: err.retriable }, want.name).toEqual(want);
    }
  });

  it("design §14's table lists every class of the test's table, with the same code and retriable", () => {
    const design = readFileSync(path.join(root, "docs/design.md"), "utf8");
    for (const [, want] of TABLE) {
      const row = design.split("\n").find((l) => l.startsWith("| `") && (l.split(" | ")[0] ?? "").includes(`\`${want.name}\``));
      expect(row, want.name).toBeDefined();
      expect(row, want.name).toContain(`\`${want.code}\``);
    }
  });

  it("keeps the cause and the server's Retry-After", () => {
    const cause = new Error("socket hang up");
    const e = new KafkaError("cannot set up the topics", "unreachable", true, { cause });
    expect(e.cause).toBe(cause);
    expect(new JudgeCallError("x", 429, true, 1_500).retryAfterMs).toBe(1_500);
  });

  it("storeFailure: a ClickHouse error of a permanent type is not retriable, other failures are", () => {
    const syntax = Object.assign(new Error("Syntax error"), { code: "62", type: "SYNTAX_ERROR" });
    const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:8123"), { code: "ECONNREFUSED" });
    const parts = Object.assign(new Error("Too many parts"), { code: "252", type: "TOO_MANY_PARTS" });
    expect([syntax, refused, parts].map((e) => storeFailure(e).retriable)).toEqual([false, true, true]);
    expect(storeFailure(refused).cause).toBe(refused);
    const own = new StoreInUseError(1);
    expect(storeFailure(own)).toBe(own);
  });
});

/** An Io that keeps what is written to stderr. */
function captured(env: NodeJS.ProcessEnv = {}) {
  const lines: string[] = [];
  return { io: { out: () => {}, err: (t: string) => lines.push(t), interactive: false, env, cwd: root }, lines };
}

describe("the CLI's one exit path", () => {
  it("prints one ragmeter: line and returns the error's exit code; named classes put their name first", () => {
    const c = captured();
    expect(exitOn(new ConfigError("environment variable RAGMETER_PRICES: cannot read p.json"), c.io)).toBe(2);
    expect(exitOn(new KafkaError("cannot set up the topics t: Kafka refused the SASL credentials", "authentication", false), c.io)).toBe(2);
    expect(exitOn(new JudgeCallError("503 upstream", 503, true, null), c.io)).toBe(2);
    expect(exitOn(new RangeError("index out of range"), c.io)).toBe(2);
    expect(exitOn(new Error("plain"), c.io)).toBe(2);
    expect(c.lines).toEqual([
      "ragmeter: environment variable RAGMETER_PRICES: cannot read p.json",
      "ragmeter: KafkaError: cannot set up the topics t: Kafka refused the SASL credentials",
      "ragmeter: JudgeCallError: 503 upstream",
      "ragmeter: RangeError: index out of range",
      "ragmeter: plain",
    ]);
  });

  it("reads exitCode from the error, not from its class", () => {
    class Stopped extends RagmeterError {
      constructor() {
        super("stopped on purpose", { code: "internal", exitCode: 3 });
      }
    }
    const c = captured();
    expect(exitOn(new Stopped(), c.io)).toBe(3);
    expect(c.lines).toEqual(["ragmeter: stopped on purpose"]);
  });
});

describe("the one retry helper", () => {
  const fast = { factor: 1, minTimeout: 1, maxTimeout: 1, randomize: false };

  it("retries a retriable error until it succeeds, counting attempts", async () => {
    let attempts = 0;
    const got = await retry(
      async () => {
        attempts++;
        if (attempts < 3) throw new StoreError("engine busy", true);
        return "written";
      },
      { retries: 5, backoff: fast },
    );
    expect(got).toBe("written");
    expect(attempts).toBe(3);
  });

  it("does not retry a non-retriable error, nor an error that is not a RagmeterError", async () => {
    for (const err of [new StoreError("syntax", false), new ConfigError("bad"), new Error("plain")]) {
      let attempts = 0;
      await expect(
        retry(
          async () => {
            attempts++;
            throw err;
          },
          { retries: 5, backoff: fast },
        ),
      ).rejects.toBe(err);
      expect(attempts, err.message).toBe(1);
    }
  });

  it("stops after `retries` retries and when keepGoing turns false, reporting every failure", async () => {
    let attempts = 0;
    const seen: number[] = [];
    const err = new KafkaError("unreachable", "unreachable", true);
    await expect(
      retry(
        async () => {
          attempts++;
          throw err;
        },
        { retries: 2, backoff: fast, onError: (_e, n) => seen.push(n) },
      ),
    ).rejects.toBe(err);
    expect(attempts).toBe(3);
    expect(seen).toEqual([1, 2, 3]);

    attempts = 0;
    await expect(
      retry(
        async () => {
          attempts++;
          throw err;
        },
        { retries: Number.POSITIVE_INFINITY, backoff: fast, keepGoing: () => attempts < 4 },
      ),
    ).rejects.toBe(err);
    expect(attempts).toBe(4);
  });

  it("waits the server's Retry-After when it is longer than the backoff", async () => {
    const at: number[] = [];
    await retry(
      async () => {
        at.push(performance.now());
        if (at.length === 1) throw new JudgeCallError("429", 429, true, 300);
      },
      { retries: 1, backoff: fast },
    );
    expect((at[1] ?? 0) - (at[0] ?? 0)).toBeGreaterThanOrEqual(290);
  });
});
