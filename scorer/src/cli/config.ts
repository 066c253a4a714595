import { readFileSync } from "node:fs";
import path from "node:path";
import { ConfigError } from "@ragmeter/core/domain/errors";
import type { CascadeOptions } from "@ragmeter/core/judges/cascade/options";
import { type PriceTable, priceTableSchema } from "@ragmeter/core/judges/session/cost";
import { SETTINGS, schemaOf } from "@ragmeter/runtime";
import type { StoreTarget } from "@ragmeter/store/client";
import type { Retention } from "@ragmeter/store/retention";
import type { EvaluationExportConfig } from "@ragmeter/stream/evaluationExport";
import { z } from "zod";

/**
 * The settings the CLI and the store read (design §10), built from the one settings catalog
 * (@ragmeter/runtime) and validated once. Unknown variables are ignored.
 */
export const CLI_SETTINGS = [
  SETTINGS.RAGMETER_HOME,
  SETTINGS.CLICKHOUSE_URL,
  SETTINGS.CLICKHOUSE_USER,
  SETTINGS.CLICKHOUSE_PASSWORD,
  SETTINGS.CLICKHOUSE_CLUSTER,
  SETTINGS.CLICKHOUSE_DATABASE,
  SETTINGS.OPENAI_BASE_URL,
  SETTINGS.OPENAI_API_KEY,
  SETTINGS.RAGMETER_JUDGE_MODEL,
  SETTINGS.RAGMETER_JUDGE_TIMEOUT_MS,
  SETTINGS.RAGMETER_TARGET_TIMEOUT_MS,
  SETTINGS.RAGMETER_SAMPLE_MODEL,
  SETTINGS.RAGMETER_JUDGE_CONTEXT_TOKENS,
  SETTINGS.RAGMETER_JUDGE_CONCURRENCY,
  SETTINGS.RAGMETER_JUDGE_RPM,
  SETTINGS.RAGMETER_JUDGE_RETRIES,
  SETTINGS.RAGMETER_JUDGE_EXTRA_TASKS,
  SETTINGS.RAGMETER_JUDGE_MAX_OUTPUT_TOKENS,
  SETTINGS.RAGMETER_JUDGE,
  SETTINGS.RAGMETER_CASCADE_BAND,
  SETTINGS.RAGMETER_CASCADE_MAX_SHARE,
  SETTINGS.RAGMETER_CASCADE_MAX_ANSWERS,
  SETTINGS.RAGMETER_CASCADE_LLM_TASKS,
  SETTINGS.RAGMETER_CASCADE_RULE,
  SETTINGS.RAGMETER_PRICES,
  SETTINGS.RAGMETER_RETENTION_DAYS,
  SETTINGS.RAGMETER_RETENTION_DAYS_SPANS,
  SETTINGS.RAGMETER_RETENTION_DAYS_LOGS,
  SETTINGS.RAGMETER_RETENTION_DAYS_INTERACTIONS,
  SETTINGS.RAGMETER_RELEASE_STARTUP_PAGES,
  SETTINGS.RAGMETER_RUNTIME_TUNING,
  SETTINGS.RAGMETER_FAULT_STORE_WRITE_EVERY,
  SETTINGS.RAGMETER_EVALUATION_EXPORT_ENDPOINT,
  SETTINGS.RAGMETER_COLLECTOR_TOKEN,
] as const;
export const envSchema = schemaOf(CLI_SETTINGS);

/** `k1=v1,k2=v2` (the OTLP exporter headers format; values percent-decoded). */
const headerList = z.string().transform((raw, ctx) => {
  const out: Record<string, string> = {};
  for (const part of raw.split(",")) {
    if (part.trim() === "") continue;
    const eq = part.indexOf("=");
    const key = eq < 0 ? "" : part.slice(0, eq).trim();
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/u.test(key)) {
      ctx.addIssue({ code: "custom", message: `"${part.trim()}" is not key=value with a header name as key` });
      return z.NEVER;
    }
    try {
      out[key] = decodeURIComponent(part.slice(eq + 1).trim());
    } catch {
      ctx.addIssue({ code: "custom", message: `the value of "${key}" is not percent-encoded correctly` });
      return z.NEVER;
    }
  }
  return out;
});

/** The OTLP exporter variables read when `RAGMETER_EVALUATION_EXPORT_ENDPOINT` is set (design §15). */
const evaluationExportSchema = z.object({
  OTEL_EXPORTER_OTLP_LOGS_HEADERS: headerList.optional(),
  OTEL_EXPORTER_OTLP_HEADERS: headerList.optional(),
  OTEL_EXPORTER_OTLP_LOGS_TIMEOUT: z.coerce.number().int().positive().optional(),
  OTEL_EXPORTER_OTLP_TIMEOUT: z.coerce.number().int().positive().optional(),
});

/**
 * The OTLP/HTTP logs URL of `RAGMETER_EVALUATION_EXPORT_ENDPOINT`: used as is when its path ends in
 * `/v1/logs`, else a base URL (as `OTEL_EXPORTER_OTLP_ENDPOINT`) to which `/v1/logs` is appended.
 */
export function evaluationLogsUrl(endpoint: string): string {
  const u = new URL(endpoint);
  if (/\/v1\/logs\/?$/u.test(u.pathname)) return u.toString();
  u.pathname = `${u.pathname.replace(/\/+$/u, "")}/v1/logs`;
  return u.toString();
}

/** Validated configuration. */
export interface Config {
  readonly store: StoreTarget;
  /** LLM judge endpoint, or null for the heuristic judges. */
  readonly judge: {
    readonly baseURL: string;
    readonly apiKey: string | undefined;
    readonly model: string;
    readonly timeoutMs: number;
    /** Judge window, tokens (`RAGMETER_JUDGE_CONTEXT_TOKENS`). */
    readonly contextTokens: number;
    /** Judge calls in flight (`RAGMETER_JUDGE_CONCURRENCY`). */
    readonly concurrency: number;
    /** Judge calls started per minute (`RAGMETER_JUDGE_RPM`), null = unlimited. */
    readonly rpm: number | null;
    /** Retries of a retriable judge call (`RAGMETER_JUDGE_RETRIES`). */
    readonly retries: number;
    /** Cap of every judge call's output bound, tokens (`RAGMETER_JUDGE_MAX_OUTPUT_TOKENS`). */
    readonly maxOutputTokens: number;
    /** Judge tasks beyond the built-in ones (`RAGMETER_JUDGE_EXTRA_TASKS`). */
    readonly extraTasks: readonly string[];
  } | null;
  /** The cascade judge's options (`RAGMETER_JUDGE=cascade`, with `judge` its LLM tier), else null. */
  readonly cascade: CascadeOptions | null;
  /** Judge price table (`RAGMETER_PRICES` file), null when unset. */
  readonly prices: PriceTable | null;
  /** Per-request timeout of the eval target, ms. */
  readonly targetTimeoutMs: number;
  /** Model of the sample pipeline's LLM answer (with OPENAI_BASE_URL), null for extractive answers. */
  readonly sampleModel: string | null;
  /**
   * Once the store is open, return the pages of code and read-only data only the start touched
   * (Node's, and the embedded engine's) to the kernel (`RAGMETER_RELEASE_STARTUP_PAGES`, design §10).
   */
  readonly releaseStartupPages: boolean;
  /** Runtime tuning of the process (`RAGMETER_RUNTIME_TUNING`, default on; @ragmeter/runtime runtimeTuning, design §10). */
  readonly runtimeTuning: boolean;
  /** Resolved `RAGMETER_HOME`. */
  readonly home: string;
  /** Test-only: one store write in this many fails (`RAGMETER_FAULT_STORE_WRITE_EVERY`), null = none. */
  readonly faultStoreWriteEvery: number | null;
  /**
   * Retention of captured content (`RAGMETER_RETENTION_DAYS`, overridden per table group by
   * `RAGMETER_RETENTION_DAYS_SPANS`, `_LOGS`, `_INTERACTIONS`); null = kept forever.
   */
  readonly retention: Retention;
  /** Export of every stored score as a GenAI evaluation event (`RAGMETER_EVALUATION_EXPORT_ENDPOINT`), null when unset. */
  readonly evaluationExport: EvaluationExportConfig | null;
  /** Bearer token the read commands send to the store owner's read API (`RAGMETER_COLLECTOR_TOKEN`), null when unset. */
  readonly collectorToken: string | null;
  /** Settings that hold but do not do what their names suggest, one line each (the command warns). */
  readonly warnings: readonly string[];
}

/**
 * Parses the environment (design §10). Precedence: flag (already applied by the caller), then
 * environment, then default.
 * @throws ConfigError naming the variable: invalid values, or `OPENAI_BASE_URL` without
 *   `RAGMETER_JUDGE_MODEL`.
 */
export function loadConfig(env: NodeJS.ProcessEnv, overrides: { home?: string } = {}): Config {
  const set = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ""));
  const e = parseEnv(envSchema, set);
  const home = path.resolve(overrides.home ?? e.RAGMETER_HOME);
  if (e.OPENAI_BASE_URL && !e.RAGMETER_JUDGE_MODEL && e.RAGMETER_JUDGE !== "heuristic") {
    throw new ConfigError(
      "OPENAI_BASE_URL is set but RAGMETER_JUDGE_MODEL is not: set the judge model (e.g. RAGMETER_JUDGE_MODEL=gpt-4.1-mini), or unset OPENAI_BASE_URL for the heuristic judges",
    );
  }
  if ((e.RAGMETER_JUDGE === "llm" || e.RAGMETER_JUDGE === "cascade") && !e.OPENAI_BASE_URL) {
    throw new ConfigError(`RAGMETER_JUDGE=${e.RAGMETER_JUDGE} needs an LLM endpoint: set OPENAI_BASE_URL and RAGMETER_JUDGE_MODEL`);
  }
  return {
    store: storeTarget(e, home),
    judge: judgeConfig(e),
    cascade:
      e.RAGMETER_JUDGE === "cascade"
        ? {
            band: e.RAGMETER_CASCADE_BAND,
            maxShare: e.RAGMETER_CASCADE_MAX_SHARE,
            maxAnswers: e.RAGMETER_CASCADE_MAX_ANSWERS ?? null,
            llmTasks: e.RAGMETER_CASCADE_LLM_TASKS,
            rule: e.RAGMETER_CASCADE_RULE,
          }
        : null,
    prices: e.RAGMETER_PRICES === undefined ? null : loadPrices(path.resolve(e.RAGMETER_PRICES)),
    targetTimeoutMs: e.RAGMETER_TARGET_TIMEOUT_MS,
    sampleModel: e.RAGMETER_SAMPLE_MODEL ?? null,
    releaseStartupPages: e.RAGMETER_RELEASE_STARTUP_PAGES,
    runtimeTuning: e.RAGMETER_RUNTIME_TUNING,
    home,
    faultStoreWriteEvery: e.RAGMETER_FAULT_STORE_WRITE_EVERY ?? null,
    retention: retentionOf(e),
    evaluationExport: e.RAGMETER_EVALUATION_EXPORT_ENDPOINT === undefined ? null : loadEvaluationExport(e.RAGMETER_EVALUATION_EXPORT_ENDPOINT, set),
    collectorToken: e.RAGMETER_COLLECTOR_TOKEN ?? null,
    warnings: e.RAGMETER_JUDGE_MODEL !== undefined && e.OPENAI_BASE_URL === undefined ? ["RAGMETER_JUDGE_MODEL is set but OPENAI_BASE_URL is not: the heuristic judges run"] : [],
  };
}

/** The environment as {@link envSchema} reads it. */
type Env = z.infer<typeof envSchema>;

/** The store: a ClickHouse server (`CLICKHOUSE_URL`), else the embedded one under `home`. */
function storeTarget(e: Env, home: string): StoreTarget {
  if (!e.CLICKHOUSE_URL) return { kind: "embedded", home, database: e.CLICKHOUSE_DATABASE };
  return {
    kind: "server",
    url: e.CLICKHOUSE_URL,
    database: e.CLICKHOUSE_DATABASE,
    ...(e.CLICKHOUSE_USER !== undefined ? { username: e.CLICKHOUSE_USER } : {}),
    ...(e.CLICKHOUSE_PASSWORD !== undefined ? { password: e.CLICKHOUSE_PASSWORD } : {}),
    ...(e.CLICKHOUSE_CLUSTER !== undefined ? { cluster: e.CLICKHOUSE_CLUSTER } : {}),
  };
}

/** The LLM judge's settings, null (the heuristic judges) without an endpoint and a model or with `RAGMETER_JUDGE=heuristic`. */
function judgeConfig(e: Env): Config["judge"] {
  if (!e.OPENAI_BASE_URL || !e.RAGMETER_JUDGE_MODEL || e.RAGMETER_JUDGE === "heuristic") return null;
  return {
    baseURL: e.OPENAI_BASE_URL,
    apiKey: e.OPENAI_API_KEY,
    model: e.RAGMETER_JUDGE_MODEL,
    timeoutMs: e.RAGMETER_JUDGE_TIMEOUT_MS,
    contextTokens: e.RAGMETER_JUDGE_CONTEXT_TOKENS,
    concurrency: e.RAGMETER_JUDGE_CONCURRENCY,
    rpm: e.RAGMETER_JUDGE_RPM ?? null,
    retries: e.RAGMETER_JUDGE_RETRIES,
    maxOutputTokens: e.RAGMETER_JUDGE_MAX_OUTPUT_TOKENS,
    extraTasks: e.RAGMETER_JUDGE_EXTRA_TASKS,
  };
}

/** Retention per table group: its own variable, else `RAGMETER_RETENTION_DAYS`, else forever (null). */
function retentionOf(e: Env): Retention {
  return {
    spans: e.RAGMETER_RETENTION_DAYS_SPANS ?? e.RAGMETER_RETENTION_DAYS ?? null,
    logs: e.RAGMETER_RETENTION_DAYS_LOGS ?? e.RAGMETER_RETENTION_DAYS ?? null,
    interactions: e.RAGMETER_RETENTION_DAYS_INTERACTIONS ?? e.RAGMETER_RETENTION_DAYS ?? null,
  };
}

/** Validates `env` with `schema`. @throws ConfigError naming the first bad variable. */
function parseEnv<T extends z.ZodType>(schema: T, env: Record<string, unknown>): z.infer<T> {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const i = parsed.error.issues[0];
    throw new ConfigError(`environment variable ${String(i?.path[0])}: ${i?.message ?? "invalid"}`);
  }
  return parsed.data;
}

/**
 * The evaluation export settings (design §15): the logs URL of the endpoint, the headers and the
 * timeout of the standard OTLP logs exporter variables (the logs-specific one wins; 10,000 ms).
 * @throws ConfigError naming the variable.
 */
function loadEvaluationExport(endpoint: string, env: Record<string, unknown>): EvaluationExportConfig {
  const x = parseEnv(evaluationExportSchema, env);
  return {
    url: evaluationLogsUrl(endpoint),
    headers: x.OTEL_EXPORTER_OTLP_LOGS_HEADERS ?? x.OTEL_EXPORTER_OTLP_HEADERS ?? {},
    timeoutMs: x.OTEL_EXPORTER_OTLP_LOGS_TIMEOUT ?? x.OTEL_EXPORTER_OTLP_TIMEOUT ?? 10_000,
  };
}

/**
 * Reads the `RAGMETER_PRICES` file: JSON `{"<model>": {"input_per_1m": USD, "output_per_1m": USD}}`.
 * @throws ConfigError naming the variable and the file when it cannot be read or validated.
 */
function loadPrices(file: string): PriceTable {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, "utf8")) as unknown;
  } catch (err) {
    throw new ConfigError(`environment variable RAGMETER_PRICES: cannot read ${file}: ${(err as Error).message}`);
  }
  const parsed = priceTableSchema.safeParse(raw);
  if (!parsed.success) {
    const i = parsed.error.issues[0];
    throw new ConfigError(`environment variable RAGMETER_PRICES: ${file}: field "${i?.path.join(".") ?? ""}": ${i?.message ?? "invalid"}`);
  }
  return parsed.data;
}
