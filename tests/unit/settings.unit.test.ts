import { readFileSync } from "node:fs";
import { DEFAULT_TOPIC as KAFKA_DEFAULT_TOPIC, KAFKA_ENV_NAMES, kafkaEnvSchema } from "@ragmeter/kafka";
import { ALL_SETTINGS, readSetting, renderConfigurationDoc, resolveSettings, SETTINGS, SettingsError } from "@ragmeter/runtime";
import { runtimeTuningEnabled } from "@ragmeter/tuning";
import { describe, expect, it } from "vitest";
import { COLLECTOR_ENV, loadCollectorConfig } from "../../collector/src/config.js";
import { ALERT_SETTINGS, ALERT_WEBHOOK_ENV } from "../../dashboards/src/alerts.js";
import { CLI_SETTINGS, loadConfig } from "../../scorer/src/cli/config.js";
import { runCli } from "../../scorer/src/cli/main.js";
import { loadStreamConfig } from "../../stream/src/config.js";

/** Runs `ragmeter ARGS` with `env`; what it printed. */
async function cli(args: string[], env: Record<string, string>): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(["node", "ragmeter", ...args], { out: (t) => out.push(t), err: (t) => err.push(t), interactive: false, env, cwd: process.cwd() });
  return { code, out: out.join("\n"), err: err.join("\n") };
}

describe("one settings catalog (issue 30)", () => {
  it("one name per setting: no variable declared twice, no deprecated name that is also a current one", () => {
    const names = ALL_SETTINGS.map((s) => s.name);
    expect(new Set(names).size).toBe(names.length);
    const old = ALL_SETTINGS.flatMap((s) => s.deprecatedNames ?? []);
    expect(old.filter((n) => names.includes(n))).toEqual([]);
    expect(old.sort()).toEqual(["RAGMETER_CREATE_TOPICS", "RAGMETER_TOPIC_PARTITIONS"]);
  });

  it("docs/configuration.md is the one generated from the catalog (run `npm run docs:config` when this fails)", () => {
    expect(readFileSync(new URL("../../docs/configuration.md", import.meta.url), "utf8")).toBe(renderConfigurationDoc());
  });

  it("every variable the collector reads is in the catalog, marked as read by the collector", () => {
    for (const name of Object.values(COLLECTOR_ENV)) expect(ALL_SETTINGS.find((s) => s.name === name)?.processes, name).toContain("collector");
  });

  it("the shared Kafka settings (@ragmeter/kafka) are the catalog's: every variable, read by the scorer and the collector, with its type", () => {
    const shape = kafkaEnvSchema.in.shape as Record<string, unknown>;
    expect(Object.keys(shape).sort()).toEqual([...KAFKA_ENV_NAMES].sort());
    for (const name of KAFKA_ENV_NAMES) {
      const s = ALL_SETTINGS.find((x) => x.name === name);
      expect(s?.processes, name).toEqual(["scorer", "collector"]);
      expect(shape[name], name).toBe(s?.type);
    }
    expect(SETTINGS.RAGMETER_TOPIC.type.parse(undefined)).toBe(KAFKA_DEFAULT_TOPIC);
  });

  it("RAGMETER_RUNTIME_TUNING: one setting read by the CLI, the streaming scorer and the collector (runtimeTuningEnabled reads it through the catalog)", () => {
    expect(SETTINGS.RAGMETER_RUNTIME_TUNING.processes).toEqual(["cli", "scorer", "collector"]);
    expect(CLI_SETTINGS).toContain(SETTINGS.RAGMETER_RUNTIME_TUNING);
    expect(Object.values(COLLECTOR_ENV)).toContain("RAGMETER_RUNTIME_TUNING");
    for (const v of [undefined, "", "on", "off", "yes", "no", "TRUE", "0"]) {
      const env = v === undefined ? {} : { RAGMETER_RUNTIME_TUNING: v };
      const catalog = readSetting(SETTINGS.RAGMETER_RUNTIME_TUNING, env);
      expect([runtimeTuningEnabled(env), loadCollectorConfig(env).runtimeTuning, loadConfig({ ...env, RAGMETER_HOME: "/tmp/rt" }).runtimeTuning], String(v)).toEqual([
        catalog,
        catalog,
        catalog,
      ]);
    }
    expect(() => loadConfig({ RAGMETER_RUNTIME_TUNING: "maybe" })).toThrow("environment variable RAGMETER_RUNTIME_TUNING: must be true or false");
    expect(() => loadCollectorConfig({ RAGMETER_RUNTIME_TUNING: "maybe" })).toThrow("RAGMETER_RUNTIME_TUNING: must be true or false");
  });

  it("readSetting: one setting parsed with its type, empty counting as unset", () => {
    expect(readSetting(SETTINGS.RAGMETER_COLLECTOR_TOKEN, { RAGMETER_COLLECTOR_TOKEN: "" })).toBeUndefined();
    expect(readSetting(SETTINGS.RAGMETER_COLLECTOR_TOKEN, { RAGMETER_COLLECTOR_TOKEN: "t" })).toBe("t");
    expect(readSetting(SETTINGS.RAGMETER_DEBUG, {})).toBeUndefined();
    expect(() => readSetting(SETTINGS.RAGMETER_QUIET_MS, { RAGMETER_QUIET_MS: "soon" })).toThrow(/^environment variable RAGMETER_QUIET_MS: /u);
  });

  it("the Grafana alert thresholds of the catalog are the dashboards' (names and defaults)", () => {
    const catalog = ALL_SETTINGS.filter((s) => s.processes.includes("dashboards")).map((s) => [s.name, s.type.parse(undefined)]);
    expect(catalog).toEqual([[ALERT_WEBHOOK_ENV, undefined], ...Object.values(ALERT_SETTINGS).map((a) => [a.env, a.default])]);
  });
});

describe("resolveSettings: flag, then environment (current name, then deprecated), then default", () => {
  const settings = [SETTINGS.RAGMETER_KAFKA_TOPIC_PARTITIONS, SETTINGS.RAGMETER_QUIET_MS];

  it("defaults, environment, flag precedence, and the source of each", () => {
    expect(resolveSettings(settings, {}).values).toEqual({ RAGMETER_KAFKA_TOPIC_PARTITIONS: 3, RAGMETER_QUIET_MS: 5000 });
    const r = resolveSettings(settings, { RAGMETER_KAFKA_TOPIC_PARTITIONS: "6", RAGMETER_QUIET_MS: "10" }, { RAGMETER_QUIET_MS: { value: 20, flag: "--quiet-ms" } });
    expect(r.values).toEqual({ RAGMETER_KAFKA_TOPIC_PARTITIONS: 6, RAGMETER_QUIET_MS: 20 });
    expect(r.sources).toEqual({
      RAGMETER_KAFKA_TOPIC_PARTITIONS: { kind: "environment", variable: "RAGMETER_KAFKA_TOPIC_PARTITIONS", deprecated: false },
      RAGMETER_QUIET_MS: { kind: "flag", flag: "--quiet-ms" },
    });
    expect(r.warnings).toEqual([]);
  });

  it("a deprecated name is read when the current one is unset, with one warning; the current name wins", () => {
    const old = resolveSettings(settings, { RAGMETER_TOPIC_PARTITIONS: "7" });
    expect(old.values["RAGMETER_KAFKA_TOPIC_PARTITIONS"]).toBe(7);
    expect(old.warnings).toEqual(["warning: RAGMETER_TOPIC_PARTITIONS is deprecated, use RAGMETER_KAFKA_TOPIC_PARTITIONS (read this time)"]);
    const both = resolveSettings(settings, { RAGMETER_TOPIC_PARTITIONS: "7", RAGMETER_KAFKA_TOPIC_PARTITIONS: "2" });
    expect([both.values["RAGMETER_KAFKA_TOPIC_PARTITIONS"], both.warnings]).toEqual([2, []]);
  });

  it("a bad value is one line naming the variable it came from (the deprecated one when that was read)", () => {
    const lines = (env: Record<string, string>, flags = {}): readonly string[] => {
      try {
        resolveSettings(settings, env, flags);
      } catch (err) {
        if (err instanceof SettingsError) return err.lines;
        throw err;
      }
      return [];
    };
    expect(lines({ RAGMETER_TOPIC_PARTITIONS: "0" })).toEqual(["environment variable RAGMETER_TOPIC_PARTITIONS: Too small: expected number to be >0"]);
    expect(lines({}, { RAGMETER_QUIET_MS: { value: "-1", flag: "--quiet-ms" } })).toEqual(["flag --quiet-ms: Too small: expected number to be >=0"]);
  });
});

describe("each process's schema, built from the catalog", () => {
  it("streaming scorer: defaults; the deprecated RAGMETER_CREATE_TOPICS read with one warning; the current name wins", () => {
    const warnings: string[] = [];
    const d = loadStreamConfig({}, {}, (w) => warnings.push(w));
    expect([d.quietMs, d.createTopics, d.partitions, d.groupId, warnings]).toEqual([5000, true, 3, "ragmeter-scorer", []]);
    const c = loadStreamConfig({ RAGMETER_CREATE_TOPICS: "0" }, {}, (w) => warnings.push(w));
    expect([c.createTopics, warnings]).toEqual([false, ["warning: RAGMETER_CREATE_TOPICS is deprecated, use RAGMETER_KAFKA_CREATE_TOPICS (read this time)"]]);
    expect(loadStreamConfig({ RAGMETER_CREATE_TOPICS: "0", RAGMETER_KAFKA_CREATE_TOPICS: "true" }, {}, () => {}).createTopics).toBe(true);
  });

  it("streaming scorer: the --quiet-ms flag wins over RAGMETER_QUIET_MS; a bad one names its variable", () => {
    expect(loadStreamConfig({ RAGMETER_QUIET_MS: "100" }, { quietMs: 7 }).quietMs).toBe(7);
    expect(loadStreamConfig({ RAGMETER_QUIET_MS: "100" }).quietMs).toBe(100);
    expect(() => loadStreamConfig({ RAGMETER_KAFKA_CREATE_TOPICS: "maybe" })).toThrow(/^environment variable RAGMETER_KAFKA_CREATE_TOPICS: must be true or false/u);
  });

  it("collector: the same RAGMETER_KAFKA_CREATE_TOPICS (and its old name) as the scorer; flags win", () => {
    const warnings: string[] = [];
    expect(loadCollectorConfig({ RAGMETER_TOPIC_PARTITIONS: "5" }, {}, (w) => warnings.push(w)).topicPartitions).toBe(5);
    expect(warnings).toEqual(["warning: RAGMETER_TOPIC_PARTITIONS is deprecated, use RAGMETER_KAFKA_TOPIC_PARTITIONS (read this time)"]);
    const c = loadCollectorConfig({ RAGMETER_COLLECTOR_PORT: "1234", RAGMETER_KAFKA_CREATE_TOPICS: "no" }, { port: 4000 });
    expect([c.port, c.createTopics, c.bodyLimitBytes, c.workers]).toEqual([4000, false, 16 * 1024 * 1024, 1]);
    expect(() => loadCollectorConfig({ RAGMETER_COLLECTOR_PORT: "70000" })).toThrow("RAGMETER_COLLECTOR_PORT: Too big: expected number to be <=65535");
  });

  it("CLI: the catalog's settings; a bad value names its variable", () => {
    expect(CLI_SETTINGS.map((s) => s.name)).toContain("RAGMETER_JUDGE_RPM");
    const c = loadConfig({ RAGMETER_JUDGE_CONCURRENCY: "3" });
    expect([c.targetTimeoutMs, c.releaseStartupPages, c.judge]).toEqual([30_000, true, null]);
    expect(() => loadConfig({ RAGMETER_JUDGE_RETRIES: "11" })).toThrow("environment variable RAGMETER_JUDGE_RETRIES: Too big: expected number to be <=10");
  });

  it("CLI: resolved once into the typed config the commands are handed: the read API token, and the judge model without an endpoint as a warning", () => {
    expect([loadConfig({}).collectorToken, loadConfig({ RAGMETER_COLLECTOR_TOKEN: "" }).collectorToken, loadConfig({ RAGMETER_COLLECTOR_TOKEN: "s3cret" }).collectorToken]).toEqual(
      [null, null, "s3cret"],
    );
    expect(loadConfig({ RAGMETER_JUDGE_MODEL: "gpt-4.1-mini" }).warnings).toEqual(["RAGMETER_JUDGE_MODEL is set but OPENAI_BASE_URL is not: the heuristic judges run"]);
    expect(loadConfig({ RAGMETER_JUDGE_MODEL: "gpt-4.1-mini", OPENAI_BASE_URL: "http://127.0.0.1:9/v1" }).warnings).toEqual([]);
    expect(loadConfig({ RAGMETER_JUDGE_MODEL: "", OPENAI_BASE_URL: "" }).warnings).toEqual([]);
  });
});

describe("ragmeter config", () => {
  it("prints each setting of a process, its value and where it came from (computed by hand)", async () => {
    const r = await cli(["config", "--process", "dashboards"], { RAGMETER_ALERT_RECALL_K: "10", RAGMETER_ALERT_WEBHOOK_URL: "http://hook/x", RAGMETER_JUDGE_RPM: "x" });
    expect(r.code).toBe(0);
    expect(r.out).toBe(
      [
        "RAGMETER_ALERT_WEBHOOK_URL=http://hook/x      (environment variable RAGMETER_ALERT_WEBHOOK_URL)",
        "RAGMETER_ALERT_GROUNDING_DROP=0.05            (default)",
        "RAGMETER_ALERT_GROUNDING_RISK_RISE=0.05       (default)",
        "RAGMETER_ALERT_RELEVANCE_DROP=0.3             (default)",
        "RAGMETER_ALERT_RECALL_DROP=0.05               (default)",
        "RAGMETER_ALERT_RECALL_K=10                    (environment variable RAGMETER_ALERT_RECALL_K)",
        "RAGMETER_ALERT_MIN_QUESTIONS=10               (default)",
        "RAGMETER_ALERT_CONTENT_MISSING_SHARE=0.2      (default)",
        "RAGMETER_ALERT_CONTENT_MISSING_MIN_TRACES=20  (default)",
        "RAGMETER_ALERT_JUDGE_TOKENS_PER_HOUR=2000000  (default)",
        "RAGMETER_ALERT_DLQ_COUNT=0                    (default)",
        "RAGMETER_ALERT_CONSUMER_LAG=10000             (default)",
      ].join("\n"),
    );
  });

  it("--json: secrets masked, flags and deprecated names named as the source, warnings on stderr", async () => {
    const r = await cli(["config", "--process", "collector", "--json"], { RAGMETER_COLLECTOR_TOKEN: "s3cret", RAGMETER_CREATE_TOPICS: "0" });
    expect(r.code).toBe(0);
    expect(r.out).not.toContain("s3cret");
    const rows = JSON.parse(r.out) as { name: string; value: unknown; source: string }[];
    expect(rows.find((x) => x.name === "RAGMETER_COLLECTOR_TOKEN")).toEqual({
      name: "RAGMETER_COLLECTOR_TOKEN",
      value: "****",
      source: "environment variable RAGMETER_COLLECTOR_TOKEN",
    });
    expect(rows.find((x) => x.name === "RAGMETER_KAFKA_CREATE_TOPICS")).toEqual({
      name: "RAGMETER_KAFKA_CREATE_TOPICS",
      value: false,
      source: "environment variable RAGMETER_CREATE_TOPICS",
    });
    expect(rows.find((x) => x.name === "RAGMETER_COLLECTOR_PORT")).toEqual({ name: "RAGMETER_COLLECTOR_PORT", value: 4318, source: "default" });
    expect(rows).toHaveLength(34); // with RAGMETER_TLS_CERT_FILE, RAGMETER_TLS_KEY_FILE and the four RAGMETER_OTLP_MAX_* limits (issue 39)
    expect(r.err).toBe("warning: RAGMETER_CREATE_TOPICS is deprecated, use RAGMETER_KAFKA_CREATE_TOPICS (read this time)");
    const home = JSON.parse((await cli(["config", "--process", "cli", "--json", "--home", "/tmp/h"], { RAGMETER_HOME: "/elsewhere" })).out) as {
      name: string;
      value: unknown;
      source: string;
    }[];
    expect(home[0]).toEqual({ name: "RAGMETER_HOME", value: "/tmp/h", source: "flag --home" });
  });

  it("a bad value: exit 2 and one line naming the variable", async () => {
    const r = await cli(["config"], { RAGMETER_COLLECTOR_WORKERS: "lots" });
    expect([r.code, r.out]).toEqual([2, ""]);
    expect(r.err).toMatch(/^ragmeter: environment variable RAGMETER_COLLECTOR_WORKERS: [^\n]+$/u);
  });
});
