/**
 * Every setting of every ragmeter process, declared once (issue 30): its variable, zod type and
 * default, what it means, who reads it. Each process builds its one schema from these
 * (`schemaOf`), `ragmeter config` prints them, docs/configuration.md is generated from them
 * (`npm run docs:config`). Names are fixed by docs/design.md §10.
 */
import { availableParallelism } from "node:os";
import * as z from "zod"; // a namespace import lets a bundler drop what is not used (the collector bundle)
import { booleanSetting, type Process, type Setting } from "./setting.js";

/** A setting whose name keeps its literal type (so a process schema built from it is typed by name). */
type Named<N extends string, T extends z.ZodType> = Setting<T> & { readonly name: N };

const def = <N extends string, T extends z.ZodType>(
  name: N,
  type: T,
  processes: readonly Process[],
  description: string,
  extra: Pick<Setting, "secret" | "deprecatedNames" | "defaultNote"> = {},
): Named<N, T> => ({ name, type, processes, description, ...extra });

const CLI_SCORER: readonly Process[] = ["cli", "scorer"];
const SCORER: readonly Process[] = ["scorer"];
const COLLECTOR: readonly Process[] = ["collector"];
const KAFKA: readonly Process[] = ["scorer", "collector"];
const GRAFANA: readonly Process[] = ["dashboards"];

const positiveInt = (max = Number.MAX_SAFE_INTEGER) => z.coerce.number().int().positive().max(max);
const MiB = 1024 * 1024;

/** Days of retention of captured content: a whole number from 1 to 36500 (unset: kept forever). */
const DAYS = "must be a whole number of days from 1 to 36500 (e.g. 30), or unset to keep content forever";
const retentionDays = z.coerce.number({ error: DAYS }).int(DAYS).min(1, DAYS).max(36_500, DAYS).optional();
const identifier = (what: string) => z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/u, `must be a ${what}`);
const nonEmpty = z.string().min(1);

/** Who writes the topics the streaming scorer reads. */
export const SCORER_SOURCES = ["ragmeter", "otelcol"] as const;
/** Log levels. */
export const LOG_LEVELS = ["debug", "info", "warn", "error"] as const;
/** How the Kafka clients talk to the brokers, Kafka's own `security.protocol` values (@ragmeter/kafka). */
export const SECURITY_PROTOCOLS = ["PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL"] as const;
/** SASL mechanisms ragmeter's Kafka clients speak. */
export const SASL_MECHANISMS = ["PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512"] as const;
/** Kafka bootstrap servers: `a:9092,b:9092` or an array of `host:port`; at least one (@ragmeter/kafka's brokerListSchema). */
const brokerList = z
  .union([z.string(), z.array(z.string())])
  .transform((v) => (Array.isArray(v) ? v : v.split(",")).map((s) => s.trim()).filter((s) => s !== ""))
  .pipe(z.array(z.string().regex(/^[^\s:]+:\d{1,5}$/u, "must be host:port")).min(1, "needs at least one host:port"));

/** The judge backends `RAGMETER_JUDGE` names (core/src/judges/backends.ts). */
const JUDGE_BACKENDS = ["heuristic", "llm", "cascade"] as const;
/** How the cascade reads an answer both tiers judged (core/src/judges/cascade). */
const CASCADE_RULES = ["stricter", "llm"] as const;
/** Default uncertain band of the cascade judge: the risks around the no-LLM judge's own flag boundary (0.38 on the dev answers; docs/judges.md, "Which tier to choose"). */
const DEFAULT_CASCADE_BAND = "0.3,0.5";
/** `low,high` with 0 ≤ low ≤ high ≤ 1. */
const BAND = "must be `low,high` with 0 ≤ low ≤ high ≤ 1 (e.g. 0.2,0.3)";
const riskBand = z.string().transform((raw, ctx) => {
  const parts = raw.split(",").map((p) => p.trim());
  const [low, high] = parts.map(Number);
  if (parts.length !== 2 || parts.some((p) => p === "") || low === undefined || high === undefined || !(low >= 0 && high <= 1 && low <= high)) {
    ctx.addIssue({ code: "custom", message: `${BAND}, got "${raw}"` });
    return z.NEVER;
  }
  return { low, high };
});
/** A comma-separated list of judge task names (empty: none). */
const taskList = z
  .string()
  .prefault("")
  .transform((raw) =>
    raw
      .split(",")
      .map((t) => t.trim())
      .filter((t) => t !== ""),
  );

/**
 * V8 heap growth past the live set of the last full collection, percent, that the runtime tuning
 * (../tuning.ts) gives the streaming scorer and `eval` (V8's `--heap-growing-percent`; the figures are in
 * bench/README.md, "Runtime tuning"): the default of `RAGMETER_SCORER_HEAP_GROWTH_PERCENT`.
 */
export const HEAP_GROWTH_PERCENT = 50;

/**
 * The defaults of the streaming scorer's span write batches (`RAGMETER_SCORER_WRITE_MAX_SPANS`,
 * `_MAX_BYTES`, `_MAX_WAIT_MS`; stream/src/writeBatcher.ts; the figures they were chosen from are in
 * bench/README.md, "Write batches").
 */
export const SCORER_WRITE_BATCH = { maxCount: 20_000, maxBytes: 8 * MiB, maxWaitMs: 50, gapMs: 10 } as const;

/** The default of `RAGMETER_SCORER_BATCH_MAX_WAIT_MS`, ms (bench/README.md, "Write batches"). */
export const SCORER_BATCH_WAIT_MS = 1000;

/**
 * A per-service map `name=value,name=value` (service names as their `service.name` resource
 * attribute; a name may not hold `=` or `,`), each value checked by `value`; empty: no override.
 */
const perService = (value: z.ZodType<number>, what: string) =>
  z
    .string()
    .transform((s, ctx) => {
      const out: Record<string, number> = {};
      for (const part of s
        .split(",")
        .map((x) => x.trim())
        .filter((x) => x !== "")) {
        const eq = part.lastIndexOf("=");
        const name = eq > 0 ? part.slice(0, eq).trim() : "";
        const parsed = value.safeParse(part.slice(eq + 1).trim());
        if (eq <= 0 || name === "" || !parsed.success) {
          ctx.addIssue({ code: "custom", message: `must be service=${what},… (bad entry "${part}")` });
          return z.NEVER;
        }
        out[name] = parsed.data;
      }
      return out;
    })
    .optional();
const sampleRate = z.coerce.number().min(0).max(1);
const perHour = z.coerce.number().int().positive();

const alert = <N extends string>(name: N, value: number, description: string) =>
  def(name, z.coerce.number().min(0).default(value), GRAFANA, `alert rule threshold: ${description}`);

/** Every setting, by variable name. */
export const SETTINGS = {
  // Store (every command that opens it: the CLI and the streaming scorer)
  RAGMETER_HOME: def("RAGMETER_HOME", nonEmpty.default("./.ragmeter"), CLI_SCORER, "local state and the embedded store (flag `--home` wins)"),
  CLICKHOUSE_URL: def("CLICKHOUSE_URL", z.string().url().optional(), CLI_SCORER, "a ClickHouse server (HTTP); unset = the embedded engine"),
  CLICKHOUSE_USER: def("CLICKHOUSE_USER", z.string().optional(), CLI_SCORER, "ClickHouse server user"),
  CLICKHOUSE_PASSWORD: def("CLICKHOUSE_PASSWORD", z.string().optional(), CLI_SCORER, "ClickHouse server password", { secret: true }),
  CLICKHOUSE_DATABASE: def("CLICKHOUSE_DATABASE", identifier("ClickHouse identifier").default("ragmeter"), CLI_SCORER, "database name"),
  CLICKHOUSE_CLUSTER: def(
    "CLICKHOUSE_CLUSTER",
    identifier("ClickHouse cluster name").optional(),
    CLI_SCORER,
    "server mode: create the clustered schema (`ON CLUSTER`, replicated `<table>_local` tables behind `Distributed` tables)",
  ),
  RAGMETER_RETENTION_DAYS: def("RAGMETER_RETENTION_DAYS", retentionDays, CLI_SCORER, "days captured content is kept, 1–36500 (unset: forever); scores stay"),
  RAGMETER_RETENTION_DAYS_SPANS: def("RAGMETER_RETENTION_DAYS_SPANS", retentionDays, CLI_SCORER, "override for spans' attributes and events", {
    defaultNote: "`RAGMETER_RETENTION_DAYS`",
  }),
  RAGMETER_RETENTION_DAYS_LOGS: def("RAGMETER_RETENTION_DAYS_LOGS", retentionDays, CLI_SCORER, "override for log bodies and attributes", {
    defaultNote: "`RAGMETER_RETENTION_DAYS`",
  }),
  RAGMETER_RETENTION_DAYS_INTERACTIONS: def(
    "RAGMETER_RETENTION_DAYS_INTERACTIONS",
    retentionDays,
    CLI_SCORER,
    "override for questions, answers, retrieved chunks, claim texts and the judge cache",
    { defaultNote: "`RAGMETER_RETENTION_DAYS`" },
  ),
  RAGMETER_RELEASE_STARTUP_PAGES: def(
    "RAGMETER_RELEASE_STARTUP_PAGES",
    booleanSetting.default(true),
    ["cli", "scorer", "collector"],
    "once started (the collector just before it listens, a command once its store is open), return the pages of code and read-only data only the start touched to the kernel",
  ),
  RAGMETER_RUNTIME_TUNING: def(
    "RAGMETER_RUNTIME_TUNING",
    booleanSetting.default(true),
    ["cli", "scorer", "collector"],
    "the one switch of the runtime tuning (`@ragmeter/tuning`, tuning/src/tuning.ts), read where the process starts: V8's heap growth (`RAGMETER_SCORER_HEAP_GROWTH_PERCENT`) for `scorer`, `serve` and `eval`; V8's TurboFan threshold for `eval`; `JE_MALLOC_CONF` for the embedded engine when unset; the release of startup pages (with `RAGMETER_RELEASE_STARTUP_PAGES`); `ragmeter collector`'s Node flag and `MALLOC_ARENA_MAX`; `serve`'s and `scorer`'s Node flag (`--max-semi-space-size=8`: the bin replaces its process with itself under it, scorer/src/cli/liveProcess.ts). On (the documented memory figures are measured with it, and none of it can fail a run); off gives Node's and the engine's own behaviour",
    { defaultNote: "`on`" },
  ),
  RAGMETER_FAULT_STORE_WRITE_EVERY: def(
    "RAGMETER_FAULT_STORE_WRITE_EVERY",
    z.coerce.number().int().min(2, "must be a whole number ≥ 2 (one store write in N fails; test only)").optional(),
    ["cli", "scorer"],
    "test only (bench:soak, the store-faults test): one store insert in N fails with a retriable error before it reaches the engine; unset (always, outside tests) the store's clients are not wrapped",
  ),
  // Judges
  OPENAI_BASE_URL: def("OPENAI_BASE_URL", z.string().url().optional(), CLI_SCORER, "OpenAI-compatible judge endpoint; unset = heuristic judges"),
  OPENAI_API_KEY: def("OPENAI_API_KEY", z.string().optional(), CLI_SCORER, "API key of the judge endpoint", { secret: true }),
  RAGMETER_JUDGE_MODEL: def("RAGMETER_JUDGE_MODEL", nonEmpty.optional(), CLI_SCORER, "judge model; required when `OPENAI_BASE_URL` is set"),
  RAGMETER_JUDGE_TIMEOUT_MS: def(
    "RAGMETER_JUDGE_TIMEOUT_MS",
    z.coerce.number().int().positive().default(60_000),
    CLI_SCORER,
    "time budget of one judgment, ms (all its calls and retries; queueing not counted)",
  ),
  RAGMETER_JUDGE_CONTEXT_TOKENS: def(
    "RAGMETER_JUDGE_CONTEXT_TOKENS",
    z.coerce.number().int().min(256).default(32_000),
    CLI_SCORER,
    "judge window in tokens for one call's prompt + message + the reply's bound; longer contexts are split",
  ),
  RAGMETER_JUDGE_CONCURRENCY: def("RAGMETER_JUDGE_CONCURRENCY", z.coerce.number().int().min(1).max(256).default(8), CLI_SCORER, "judge calls in flight at once (1–256)"),
  RAGMETER_JUDGE_RPM: def("RAGMETER_JUDGE_RPM", z.coerce.number().int().positive().optional(), CLI_SCORER, "judge calls started per minute; unset = unlimited"),
  RAGMETER_JUDGE_RETRIES: def(
    "RAGMETER_JUDGE_RETRIES",
    z.coerce.number().int().min(0).max(10).default(3),
    CLI_SCORER,
    "retries of a retriable judge call (0–10; 429 honours `Retry-After`)",
  ),
  RAGMETER_JUDGE_EXTRA_TASKS: def(
    "RAGMETER_JUDGE_EXTRA_TASKS",
    z
      .string()
      .default("")
      .transform((s) =>
        s
          .split(",")
          .map((x) => x.trim())
          .filter((x) => x !== ""),
      ),
    CLI_SCORER,
    "comma-separated judge tasks the LLM judge runs beyond grounding, relevance and reference facts (context relevance): one more call per answer each; unset, those metrics are `not_applicable` under an LLM judge (the no-LLM judge always runs them)",
  ),
  RAGMETER_JUDGE_MAX_OUTPUT_TOKENS: def(
    "RAGMETER_JUDGE_MAX_OUTPUT_TOKENS",
    z.coerce.number().int().min(16).default(2048),
    CLI_SCORER,
    "cap of every judge call's output bound (`max_tokens`); a reply cut by it is retried once with a larger bound",
  ),
  RAGMETER_JUDGE: def(
    "RAGMETER_JUDGE",
    z.enum(JUDGE_BACKENDS).optional(),
    CLI_SCORER,
    "the judge backend: `heuristic` (no model), `llm` (needs `OPENAI_BASE_URL`) or `cascade` (the heuristic judge on every answer, the LLM on answers whose grounding risk lies in `RAGMETER_CASCADE_BAND`; needs `OPENAI_BASE_URL`); unset = `llm` when `OPENAI_BASE_URL` is set, else `heuristic`",
  ),
  RAGMETER_CASCADE_BAND: def(
    "RAGMETER_CASCADE_BAND",
    riskBand.prefault(DEFAULT_CASCADE_BAND),
    CLI_SCORER,
    "`low,high`: the cascade sends a grounding answer to the LLM when the heuristic judge's grounding risk r has low ≤ r ≤ high (0 ≤ low ≤ high ≤ 1)",
    { defaultNote: `\`${DEFAULT_CASCADE_BAND}\`` },
  ),
  RAGMETER_CASCADE_MAX_SHARE: def(
    "RAGMETER_CASCADE_MAX_SHARE",
    z.coerce.number().gt(0).max(1).default(0.3),
    CLI_SCORER,
    "the cascade's budget: at most this share (0–1] of the grounding answers judged so far in a run go to the LLM",
  ),
  RAGMETER_CASCADE_MAX_ANSWERS: def(
    "RAGMETER_CASCADE_MAX_ANSWERS",
    z.coerce.number().int().positive().optional(),
    CLI_SCORER,
    "the cascade's budget: at most this many answers go to the LLM per run (per process for `ragmeter scorer`); unset = no count limit",
  ),
  RAGMETER_CASCADE_RULE: def(
    "RAGMETER_CASCADE_RULE",
    z.enum(CASCADE_RULES).default("stricter"),
    CLI_SCORER,
    "how the cascade reads an answer both tiers judged: `stricter` (the judgment that finds less of the answer supported, the LLM's on a tie: the LLM adds doubts, tier 1's stand) or `llm` (the LLM's judgment replaces tier 1's: for a model measured to beat tier 1 on the band)",
  ),
  RAGMETER_CASCADE_LLM_TASKS: def(
    "RAGMETER_CASCADE_LLM_TASKS",
    taskList,
    CLI_SCORER,
    "judge tasks other than grounding that the cascade leaves to the LLM alone, comma-separated (e.g. relevance); unset = all the heuristic judge's",
    { defaultNote: "none" },
  ),
  RAGMETER_PRICES: def(
    "RAGMETER_PRICES",
    nonEmpty.optional(),
    CLI_SCORER,
    "JSON price table file `{model: {input_per_1m, output_per_1m}}` in USD; gives the judge cost per run and enables `--max-cost`",
  ),
  RAGMETER_TARGET_TIMEOUT_MS: def("RAGMETER_TARGET_TIMEOUT_MS", z.coerce.number().int().positive().default(30_000), ["cli"], "per target request in `eval`, ms"),
  RAGMETER_SAMPLE_MODEL: def("RAGMETER_SAMPLE_MODEL", nonEmpty.optional(), ["cli"], "LLM answers for the sample pipeline (with `OPENAI_BASE_URL`)"),
  RAGMETER_EVALUATION_EXPORT_ENDPOINT: def(
    "RAGMETER_EVALUATION_EXPORT_ENDPOINT",
    z
      .string()
      .url()
      .refine((u) => URL.canParse(u) && /^https?:$/u.test(new URL(u).protocol), "must be an http:// or https:// URL")
      .optional(),
    CLI_SCORER,
    "OTLP/HTTP endpoint the evaluation events are exported to (a base URL, `/v1/logs` appended, or a URL ending in `/v1/logs`); unset: off. Headers and timeout: the standard `OTEL_EXPORTER_OTLP_(LOGS_)HEADERS` / `_TIMEOUT`",
  ),
  RAGMETER_CHROMIUM: def("RAGMETER_CHROMIUM", nonEmpty.optional(), ["cli"], "Chromium binary for `report --png`"),
  RAGMETER_DEBUG: def("RAGMETER_DEBUG", nonEmpty.optional(), ["cli"], "set: an unexpected error prints its stack"),
  // Streaming scorer
  RAGMETER_QUIET_MS: def(
    "RAGMETER_QUIET_MS",
    z.coerce.number().int().min(0).default(5000),
    CLI_SCORER,
    "quiet window after a trace's last span before it is scored, ms (flag `--quiet-ms` wins)",
  ),
  RAGMETER_LIVE_SAMPLE_RATE: def(
    "RAGMETER_LIVE_SAMPLE_RATE",
    sampleRate.default(1),
    SCORER,
    "share of live traces judged by an LLM judge (0–1), decided by a hash of the trace id (the same on every replica and restart)",
  ),
  RAGMETER_LIVE_SAMPLE_RATE_BY_SERVICE: def(
    "RAGMETER_LIVE_SAMPLE_RATE_BY_SERVICE",
    perService(sampleRate, "rate"),
    SCORER,
    "per-service overrides of `RAGMETER_LIVE_SAMPLE_RATE`: `checkout=1,search=0.05` (names as their `service.name`)",
  ),
  RAGMETER_JUDGE_CALLS_PER_HOUR: def(
    "RAGMETER_JUDGE_CALLS_PER_HOUR",
    perHour.optional(),
    SCORER,
    "judge budget of live traffic: LLM judge requests (retries included) per service in any 60 minutes, counted over every scorer of the store (scale-out.md); past it answers are `budget_exhausted`; unset = no cap",
  ),
  RAGMETER_JUDGE_CALLS_PER_HOUR_BY_SERVICE: def(
    "RAGMETER_JUDGE_CALLS_PER_HOUR_BY_SERVICE",
    perService(perHour, "calls"),
    SCORER,
    "per-service overrides of `RAGMETER_JUDGE_CALLS_PER_HOUR`: `checkout=500,search=50`",
  ),
  RAGMETER_JUDGE_TOKENS_PER_HOUR: def(
    "RAGMETER_JUDGE_TOKENS_PER_HOUR",
    perHour.optional(),
    SCORER,
    "judge budget of live traffic: LLM judge tokens (prompt + completion) per service in any 60 minutes, counted over every scorer of the store (scale-out.md); past it answers are `budget_exhausted`; unset = no cap",
  ),
  RAGMETER_JUDGE_TOKENS_PER_HOUR_BY_SERVICE: def(
    "RAGMETER_JUDGE_TOKENS_PER_HOUR_BY_SERVICE",
    perService(perHour, "tokens"),
    SCORER,
    "per-service overrides of `RAGMETER_JUDGE_TOKENS_PER_HOUR`: `checkout=2000000,search=100000`",
  ),
  RAGMETER_SCORER_GROUP: def("RAGMETER_SCORER_GROUP", nonEmpty.default("ragmeter-scorer"), SCORER, "Kafka consumer group"),
  RAGMETER_KAFKA_SESSION_TIMEOUT_MS: def("RAGMETER_KAFKA_SESSION_TIMEOUT_MS", z.coerce.number().int().min(1000).default(30_000), SCORER, "consumer session timeout, ms"),
  RAGMETER_SCORER_CONCURRENCY: def("RAGMETER_SCORER_CONCURRENCY", z.coerce.number().int().min(1).default(8), SCORER, "traces scored at once per batch"),
  RAGMETER_SOURCE: def(
    "RAGMETER_SOURCE",
    z.enum(SCORER_SOURCES).default("ragmeter"),
    SCORER,
    "who writes the topics: `ragmeter` (ragmeter's collector, `RAGMETER_TOPIC`) or `otelcol` (the OpenTelemetry Collector's Kafka exporter); flag `--source` wins",
  ),
  RAGMETER_OTLP_SPANS_TOPIC: def("RAGMETER_OTLP_SPANS_TOPIC", nonEmpty.default("otlp_spans"), SCORER, "span topic with `RAGMETER_SOURCE=otelcol`"),
  RAGMETER_OTLP_LOGS_TOPIC: def("RAGMETER_OTLP_LOGS_TOPIC", nonEmpty.default("otlp_logs"), SCORER, "log topic with `RAGMETER_SOURCE=otelcol`"),
  RAGMETER_SCORER_MAX_PENDING: def(
    "RAGMETER_SCORER_MAX_PENDING",
    z.coerce.number().int().min(1).default(50_000),
    SCORER,
    "traces written and not yet scored at which consumption pauses (resumes under half)",
  ),
  RAGMETER_SCORER_WRITE_MAX_SPANS: def(
    "RAGMETER_SCORER_WRITE_MAX_SPANS",
    positiveInt().default(SCORER_WRITE_BATCH.maxCount),
    SCORER,
    "spans and log records at most in one span write (one insert per table), across the requests of `serve` or the records of a Kafka fetch",
  ),
  RAGMETER_SCORER_WRITE_MAX_BYTES: def(
    "RAGMETER_SCORER_WRITE_MAX_BYTES",
    positiveInt().default(SCORER_WRITE_BATCH.maxBytes),
    SCORER,
    "bytes at most in one span write, counted as the OTLP protobuf bytes of its records (an estimate of the rows it inserts); a record larger than this is written alone",
  ),
  RAGMETER_SCORER_WRITE_MAX_WAIT_MS: def(
    "RAGMETER_SCORER_WRITE_MAX_WAIT_MS",
    z.coerce.number().int().min(0).max(60_000).default(SCORER_WRITE_BATCH.maxWaitMs),
    SCORER,
    "how long `serve`'s first request of a span write waits at most for others to join it, ms (0: written as soon as no write is in flight; what arrives during a write joins the next); a request's 200 waits for its write",
  ),
  RAGMETER_SCORER_WRITE_GAP_MS: def(
    "RAGMETER_SCORER_WRITE_GAP_MS",
    z.coerce.number().int().min(0).max(60_000).default(SCORER_WRITE_BATCH.gapMs),
    SCORER,
    "how long a pending span write of `serve` waits at most after its newest request for another, ms: written once none joined for this long, before `RAGMETER_SCORER_WRITE_MAX_WAIT_MS` (clients that each wait for their 200 have all sent theirs); at or above the max wait, only the max wait counts",
  ),
  RAGMETER_JUDGE_THREAD: def(
    "RAGMETER_JUDGE_THREAD",
    booleanSetting.default(true),
    SCORER,
    "`scorer` and `serve` run the heuristic judge on a thread of its own (its rules' CPU, about 2 ms a production-shaped trace, off the thread that accepts, writes and scores spans); off: on that thread. Judgments are the same either way; the LLM judge and the cascade wait on their endpoint and stay on it",
    { defaultNote: "`on`" },
  ),
  RAGMETER_SCORER_BATCH_MAX_WAIT_MS: def(
    "RAGMETER_SCORER_BATCH_MAX_WAIT_MS",
    z.coerce.number().int().min(0).max(600_000).default(SCORER_BATCH_WAIT_MS),
    SCORER,
    "how long a trace past its quiet window waits at most for others to share its scoring batch (its results one insert per table with theirs), ms; a full batch is scored at once; 0: a batch of whatever is due",
  ),
  RAGMETER_SCORER_HEAP_GROWTH_PERCENT: def(
    "RAGMETER_SCORER_HEAP_GROWTH_PERCENT",
    z.coerce.number().int().min(0).max(1000).default(HEAP_GROWTH_PERCENT),
    SCORER,
    "how far V8 lets the streaming scorer's heap grow past its live set, percent (0 = V8's own factor)",
  ),
  // Kafka (shared by the collector and the streaming scorer)
  KAFKA_BROKERS: def(
    "KAFKA_BROKERS",
    brokerList.optional(),
    KAFKA,
    "Kafka bootstrap servers `host:port,…` (`127.0.0.1:9092` when unset; `serve` uses Kafka only when set); flag `--brokers` wins",
    { defaultNote: "`127.0.0.1:9092`" },
  ),
  RAGMETER_TOPIC: def("RAGMETER_TOPIC", nonEmpty.default("ragmeter.spans"), KAFKA, "span topic; the dead-letter topic is `<topic>.dlq`"),
  RAGMETER_KAFKA_CREATE_TOPICS: def(
    "RAGMETER_KAFKA_CREATE_TOPICS",
    booleanSetting.default(true),
    KAFKA,
    "create a missing topic and its `<topic>.dlq`; otherwise the scorer waits for them, the collector answers 503 naming the topic",
    { deprecatedNames: ["RAGMETER_CREATE_TOPICS"] },
  ),
  RAGMETER_KAFKA_TOPIC_PARTITIONS: def("RAGMETER_KAFKA_TOPIC_PARTITIONS", positiveInt(10_000).default(3), KAFKA, "partitions of the topics created", {
    deprecatedNames: ["RAGMETER_TOPIC_PARTITIONS"],
  }),
  RAGMETER_KAFKA_SECURITY_PROTOCOL: def(
    "RAGMETER_KAFKA_SECURITY_PROTOCOL",
    z.enum(SECURITY_PROTOCOLS, { message: `must be one of ${SECURITY_PROTOCOLS.join(", ")}` }).default("PLAINTEXT"),
    KAFKA,
    "how the clients reach the brokers (Kafka's `security.protocol`)",
  ),
  RAGMETER_KAFKA_SASL_MECHANISM: def(
    "RAGMETER_KAFKA_SASL_MECHANISM",
    z.enum(SASL_MECHANISMS, { message: `must be one of ${SASL_MECHANISMS.join(", ")}` }).optional(),
    KAFKA,
    "with `SASL_*` only, required",
  ),
  RAGMETER_KAFKA_SASL_USERNAME: def("RAGMETER_KAFKA_SASL_USERNAME", nonEmpty.optional(), KAFKA, "with `SASL_*` only, required: the user"),
  RAGMETER_KAFKA_SASL_PASSWORD: def("RAGMETER_KAFKA_SASL_PASSWORD", nonEmpty.optional(), KAFKA, "with `SASL_*` only: the password (or `_FILE`, not both)", { secret: true }),
  RAGMETER_KAFKA_SASL_PASSWORD_FILE: def("RAGMETER_KAFKA_SASL_PASSWORD_FILE", nonEmpty.optional(), KAFKA, "a file holding the password (one trailing newline dropped)"),
  RAGMETER_KAFKA_SSL_CA_FILE: def("RAGMETER_KAFKA_SSL_CA_FILE", nonEmpty.optional(), KAFKA, "with `SSL`/`SASL_SSL` only: PEM file of the brokers' CA (unset: the system's CAs)"),
  RAGMETER_KAFKA_SSL_CERT_FILE: def("RAGMETER_KAFKA_SSL_CERT_FILE", nonEmpty.optional(), KAFKA, "with `SSL`/`SASL_SSL` only: client certificate (PEM), with its key"),
  RAGMETER_KAFKA_SSL_KEY_FILE: def("RAGMETER_KAFKA_SSL_KEY_FILE", nonEmpty.optional(), KAFKA, "with `SSL`/`SASL_SSL` only: the client certificate's unencrypted key (PEM)"),
  // Collector
  RAGMETER_COLLECTOR_HOST: def(
    "RAGMETER_COLLECTOR_HOST",
    nonEmpty.default("127.0.0.1"),
    COLLECTOR,
    "address the collector (and `serve`) listens on: loopback unless set; another address without `RAGMETER_COLLECTOR_TOKEN` is warned at start (`0.0.0.0` inside a container); flag `--host` wins",
  ),
  RAGMETER_COLLECTOR_PORT: def("RAGMETER_COLLECTOR_PORT", z.coerce.number().int().min(0).max(65535).default(4318), COLLECTOR, "OTLP/HTTP port (0 = any free port)"),
  RAGMETER_COLLECTOR_TOKEN: def(
    "RAGMETER_COLLECTOR_TOKEN",
    nonEmpty.optional(),
    ["cli", "scorer", "collector"],
    "bearer token required on /v1/* when set, and on the read API of `serve` and `scorer --api-port`; the CLI's read commands send it to that API. Unset on an address other than loopback: the read API answers 403",
    { secret: true },
  ),
  RAGMETER_TLS_CERT_FILE: def(
    "RAGMETER_TLS_CERT_FILE",
    nonEmpty.optional(),
    ["cli", "scorer", "collector"],
    "PEM certificate (chain) the collector's OTLP receiver and the read API (`serve`, `scorer --api-port`) serve HTTPS with, with `RAGMETER_TLS_KEY_FILE`; read again when the file changes (unset: plain HTTP)",
  ),
  RAGMETER_TLS_KEY_FILE: def(
    "RAGMETER_TLS_KEY_FILE",
    nonEmpty.optional(),
    ["cli", "scorer", "collector"],
    "the certificate's unencrypted private key (PEM), with `RAGMETER_TLS_CERT_FILE`; read again when the file changes",
  ),
  RAGMETER_COLLECTOR_BODY_LIMIT_BYTES: def(
    "RAGMETER_COLLECTOR_BODY_LIMIT_BYTES",
    positiveInt().default(16 * MiB),
    COLLECTOR,
    "largest request body, compressed and decompressed (413 above)",
  ),
  RAGMETER_COLLECTOR_MAX_INFLIGHT_BYTES: def(
    "RAGMETER_COLLECTOR_MAX_INFLIGHT_BYTES",
    positiveInt().default(128 * MiB),
    COLLECTOR,
    "bytes of request bodies processed at once; beyond it 429 (503 while Kafka is down)",
  ),
  RAGMETER_COLLECTOR_RETRY_AFTER_SECONDS: def("RAGMETER_COLLECTOR_RETRY_AFTER_SECONDS", positiveInt(3600).default(2), COLLECTOR, "Retry-After on 429/503, seconds"),
  RAGMETER_COLLECTOR_SHUTDOWN_TIMEOUT_MS: def("RAGMETER_COLLECTOR_SHUTDOWN_TIMEOUT_MS", positiveInt().default(15_000), COLLECTOR, "longest graceful shutdown, ms"),
  RAGMETER_COLLECTOR_WORKERS: def(
    "RAGMETER_COLLECTOR_WORKERS",
    z.union([z.literal("auto").transform(() => availableParallelism()), positiveInt(256)]).default(1),
    COLLECTOR,
    "worker processes sharing the listening socket (1 = one process; `auto` = the available cores); flag `--workers` wins",
  ),
  // Limits of one OTLP export request (the receiver) or Kafka record (the scorer), issue 39: otlp/src/limits.ts
  RAGMETER_OTLP_MAX_ITEMS_PER_REQUEST: def(
    "RAGMETER_OTLP_MAX_ITEMS_PER_REQUEST",
    positiveInt().default(100_000),
    KAFKA,
    "spans, or log records, of one export request (or Kafka record); a request over it is refused whole (400, a record to the dead-letter topic). The OpenTelemetry SDKs export 512 per request",
  ),
  RAGMETER_OTLP_MAX_ATTRIBUTES: def(
    "RAGMETER_OTLP_MAX_ATTRIBUTES",
    positiveInt().default(10_000),
    KAFKA,
    "attributes of one span, event, link, log record, resource or scope; events and links of one span; entries of one array or map value. A span or log record over it is rejected alone, with the reason (a resource or scope: the request). The SDKs' limit is 128; OpenInference flattens each retrieved document into 4 attributes",
  ),
  RAGMETER_OTLP_MAX_VALUE_BYTES: def(
    "RAGMETER_OTLP_MAX_VALUE_BYTES",
    positiveInt().default(8 * MiB),
    KAFKA,
    "UTF-8 bytes of one string value (attribute, log body), bytes of one bytes value; an item over it is rejected alone. The SDKs set none; a Kafka record (`RAGMETER_KAFKA_MAX_MESSAGE_BYTES`) bounds a span anyway",
  ),
  RAGMETER_OTLP_MAX_VALUE_DEPTH: def(
    "RAGMETER_OTLP_MAX_VALUE_DEPTH",
    positiveInt(32).default(32),
    KAFKA,
    "levels of one attribute value or log body (1 = a scalar, 2 = an array or map of scalars, …), at most 32 (the protobuf decoder's own bound: 100 message levels); an item over it is rejected alone",
  ),
  RAGMETER_KAFKA_MAX_MESSAGE_BYTES: def(
    "RAGMETER_KAFKA_MAX_MESSAGE_BYTES",
    positiveInt().default(1_000_000),
    COLLECTOR,
    "largest Kafka record value; bigger traces are split (keep below the broker's message.max.bytes)",
  ),
  RAGMETER_KAFKA_SEND_TIMEOUT_MS: def(
    "RAGMETER_KAFKA_SEND_TIMEOUT_MS",
    positiveInt().default(10_000),
    COLLECTOR,
    "how long a request waits for Kafka's acknowledgement before 503, ms",
  ),
  RAGMETER_KAFKA_BACKOFF_MS: def(
    "RAGMETER_KAFKA_BACKOFF_MS",
    z.coerce.number().int().min(0).default(1_000),
    COLLECTOR,
    "after a Kafka failure, answer 503 at once for this long, ms",
  ),
  RAGMETER_KAFKA_IDEMPOTENT: def("RAGMETER_KAFKA_IDEMPOTENT", booleanSetting.default(true), COLLECTOR, "idempotent producer"),
  RAGMETER_KAFKA_CLIENT_ID: def("RAGMETER_KAFKA_CLIENT_ID", nonEmpty.default("ragmeter-collector"), COLLECTOR, "Kafka client id"),
  RAGMETER_LOG_LEVEL: def("RAGMETER_LOG_LEVEL", z.enum(LOG_LEVELS).default("info"), COLLECTOR, "log level"),
  // Grafana container (the generated alerting provisioning)
  RAGMETER_ALERT_WEBHOOK_URL: def("RAGMETER_ALERT_WEBHOOK_URL", nonEmpty.optional(), GRAFANA, "URL of the alerts' webhook contact point"),
  RAGMETER_ALERT_GROUNDING_DROP: alert("RAGMETER_ALERT_GROUNDING_DROP", 0.05, "largest allowed drop of mean grounding (0–1)"),
  RAGMETER_ALERT_GROUNDING_RISK_RISE: alert("RAGMETER_ALERT_GROUNDING_RISK_RISE", 0.05, "largest allowed rise of mean grounding_risk (0–1)"),
  RAGMETER_ALERT_RELEVANCE_DROP: alert("RAGMETER_ALERT_RELEVANCE_DROP", 0.3, "largest allowed drop of mean relevance (0–4)"),
  RAGMETER_ALERT_RECALL_DROP: alert("RAGMETER_ALERT_RECALL_DROP", 0.05, "largest allowed drop of mean recall@k (0–1)"),
  RAGMETER_ALERT_RECALL_K: alert("RAGMETER_ALERT_RECALL_K", 5, "k of the recall@k rules"),
  RAGMETER_ALERT_MIN_QUESTIONS: alert("RAGMETER_ALERT_MIN_QUESTIONS", 10, "questions (traces) each side of a comparison needs before a drop rule fires"),
  RAGMETER_ALERT_CONTENT_MISSING_SHARE: alert("RAGMETER_ALERT_CONTENT_MISSING_SHARE", 0.2, "largest allowed share of traces scored content_missing in the last hour"),
  RAGMETER_ALERT_CONTENT_MISSING_MIN_TRACES: alert("RAGMETER_ALERT_CONTENT_MISSING_MIN_TRACES", 20, "traces scored in the last hour before the content_missing rule fires"),
  RAGMETER_ALERT_JUDGE_TOKENS_PER_HOUR: alert("RAGMETER_ALERT_JUDGE_TOKENS_PER_HOUR", 2_000_000, "judge token budget (in + out) per hour"),
  RAGMETER_ALERT_DLQ_COUNT: alert("RAGMETER_ALERT_DLQ_COUNT", 0, "dead-lettered messages allowed in 15 minutes"),
  RAGMETER_ALERT_CONSUMER_LAG: alert("RAGMETER_ALERT_CONSUMER_LAG", 10_000, "largest allowed consumer lag of one scorer, messages"),
} as const;

/** Every setting, in declaration order. */
export const ALL_SETTINGS: readonly Setting[] = Object.values(SETTINGS);
