import { readFile } from "node:fs/promises";
import path from "node:path";
import { ConfigError } from "@ragmeter/core/domain/errors";
import type { RetrievedItem } from "@ragmeter/core/domain/metrics/recall";
import { RagmeterError } from "@ragmeter/runtime";
import { JSONPath } from "jsonpath-plus";
import { parse as parseYaml } from "yaml";
import { z } from "zod";
import type { Target, TargetRequest, TargetResult, TraceHeaders } from "./target.js";
import { inlineTargetClient, type TargetClient } from "./targetClient.js";

/**
 * A target config (`eval --target-config FILE`, issue 12), modelled on promptfoo's HTTP provider:
 * how to call a RAG service of any shape and where its answer and contexts are in the reply.
 */
const targetConfigSchema = z
  .object({
    url: z.string().min(1),
    method: z.enum(["GET", "POST", "PUT"]).default("POST"),
    headers: z.record(z.string(), z.string()).default({}),
    /** JSON body (POST/PUT); placeholders in its strings. */
    body: z.unknown().optional(),
    /** Query parameters (any method; the way a GET carries the question). */
    queryParams: z.record(z.string(), z.union([z.string(), z.number()])).default({}),
    response: z
      .object({
        answer: z.string().min(1),
        contexts: z.string().min(1),
        context: z
          .object({
            id: z.string().min(1),
            document_id: z.string().min(1).optional(),
            text: z.string().min(1),
            score: z.string().min(1).optional(),
          })
          .strict(),
      })
      .strict(),
  })
  .strict();

export type TargetConfig = z.output<typeof targetConfigSchema>;

/** Placeholder values of one request. */
export interface PlaceholderValues {
  readonly question: string;
  readonly k: number;
  readonly golden_id: string;
  readonly run_id: string;
}

const PLACEHOLDER = /\{\{\s*(question|k|golden_id|run_id)\s*\}\}/gu;
const WHOLE = /^\{\{\s*(question|k|golden_id|run_id)\s*\}\}$/u;
const ENV = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/gu;

/**
 * Replaces `${VAR}` in every string of `value` from `env`.
 * @throws ConfigError naming the variable and the file when one is not set.
 */
export function expandEnv(value: unknown, env: Readonly<Record<string, string | undefined>>, file: string): unknown {
  if (typeof value === "string") {
    return value.replace(ENV, (_m, name: string) => {
      const v = env[name];
      if (v === undefined) throw new ConfigError(`${file}: environment variable ${name} is not set (used as \${${name}})`);
      return v;
    });
  }
  if (Array.isArray(value)) return value.map((v) => expandEnv(v, env, file));
  if (value !== null && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, expandEnv(v, env, file)]));
  return value;
}

/**
 * Fills `{{question}}`, `{{k}}`, `{{golden_id}}`, `{{run_id}}` in every string of `value`; a string
 * that is a placeholder alone becomes the value itself (so `"{{k}}"` is the number k).
 * @param encode applied to each value put inside a longer string (URL encoding for the URL).
 */
export function fillPlaceholders(value: unknown, vars: PlaceholderValues, encode: (s: string) => string = (s) => s): unknown {
  if (typeof value === "string") {
    const whole = WHOLE.exec(value);
    if (whole) return vars[whole[1] as keyof PlaceholderValues];
    return value.replace(PLACEHOLDER, (_m, name: string) => encode(String(vars[name as keyof PlaceholderValues])));
  }
  if (Array.isArray(value)) return value.map((v) => fillPlaceholders(v, vars, encode));
  if (value !== null && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fillPlaceholders(v, vars, encode)]));
  return value;
}

/**
 * Reads a target config: JSON (`.json`) or YAML (any other name), `${VAR}` expanded from `env`.
 * @throws ConfigError naming the file and the field (or the variable) that is wrong.
 */
export async function loadTargetConfig(file: string, env: Readonly<Record<string, string | undefined>>): Promise<TargetConfig> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (err) {
    throw new ConfigError(`--target-config ${file}: cannot read (${(err as Error).message})`);
  }
  let raw: unknown;
  try {
    raw = path.extname(file).toLowerCase() === ".json" ? JSON.parse(text) : parseYaml(text);
  } catch (err) {
    throw new ConfigError(`--target-config ${file}: not valid ${path.extname(file).toLowerCase() === ".json" ? "JSON" : "YAML"} (${(err as Error).message.split("\n")[0]})`);
  }
  // a missing field reads "required", not zod's "expected string, received undefined"
  const parsed = targetConfigSchema.safeParse(raw, { error: (iss) => (iss.input === undefined ? "required" : undefined) });
  if (!parsed.success) {
    const i = parsed.error.issues[0];
    const where = i && i.path.length > 0 ? i.path.join(".") : "(top level)";
    const msg = i?.code === "unrecognized_keys" ? `unknown field(s) ${i.keys.join(", ")}` : (i?.message ?? "invalid");
    throw new ConfigError(`--target-config ${file}: field "${where}": ${msg}`);
  }
  const cfg = expandEnv(parsed.data, env, `--target-config ${file}`) as TargetConfig;
  try {
    new URL(fillPlaceholders(cfg.url, { question: "q", k: 1, golden_id: "g", run_id: "r" }, encodeURIComponent) as string);
  } catch {
    throw new ConfigError(`--target-config ${file}: field "url": "${cfg.url}" is not a URL`);
  }
  return cfg;
}

/** A failed mapping: names the JSONPath and shows the start of the body. */
class MappingError extends RagmeterError {
  override readonly name = "MappingError";
  constructor(message: string) {
    super(message, { code: "input" });
  }
}

/** The values a JSONPath finds in `json` (empty when none). */
function query(pathExpr: string, json: unknown): unknown[] {
  return JSONPath({ path: pathExpr, json: json as object, wrap: true }) as unknown[];
}

function first(pathExpr: string, json: unknown, what: string, required: boolean): unknown {
  const found = query(pathExpr, json);
  if (found.length === 0 || found[0] === undefined || found[0] === null) {
    if (required) throw new MappingError(`response mapping ${what} "${pathExpr}" found nothing`);
    return null;
  }
  return found[0];
}

/**
 * Maps a parsed reply through the config's `response` JSONPaths into the answer and contexts.
 * Contexts without a document id get their chunk id as document id.
 * @throws MappingError naming the path that found nothing or a value of the wrong type.
 */
export function mapTargetReply(cfg: TargetConfig, body: unknown): { answer: string; contexts: RetrievedItem[] } {
  const m = cfg.response;
  const answer = first(m.answer, body, "answer", true);
  if (typeof answer !== "string") throw new MappingError(`response mapping answer "${m.answer}" is a ${typeof answer}, not a string`);
  let found = query(m.contexts, body);
  // `$.sources[*]` over an empty list finds nothing, yet the reply says "no contexts": accept it.
  if (found.length === 0 && m.contexts.endsWith("[*]")) {
    const parent = query(m.contexts.slice(0, -3), body);
    if (parent.length === 1 && Array.isArray(parent[0])) found = parent;
  }
  if (found.length === 0) throw new MappingError(`response mapping contexts "${m.contexts}" found nothing`);
  const list = found.length === 1 && Array.isArray(found[0]) ? (found[0] as unknown[]) : found;
  return { answer, contexts: list.map((c, i) => mappedContext(m.context, c, i)) };
}

/** The `i`th context of a reply through the context mapping: id and text required, document id and score optional. */
function mappedContext(m: TargetConfig["response"]["context"], c: unknown, i: number): RetrievedItem {
  const at = `contexts[${i}]`;
  const id = first(m.id, c, `${at} id`, true);
  const text = first(m.text, c, `${at} text`, true);
  if (typeof text !== "string") throw new MappingError(`response mapping ${at} text "${m.text}" is a ${typeof text}, not a string`);
  if (typeof id !== "string" && typeof id !== "number") throw new MappingError(`response mapping ${at} id "${m.id}" is a ${typeof id}, not a string`);
  const doc = m.document_id ? first(m.document_id, c, `${at} document_id`, false) : null;
  const score = m.score ? first(m.score, c, `${at} score`, false) : null;
  return { id: String(id), document_id: doc === null ? String(id) : String(doc), text, score: scoreValue(score) };
}

/** A score found by the mapping: a number, or a string holding a finite one; else null. */
function scoreValue(score: unknown): number | null {
  if (typeof score === "number") return score;
  return typeof score === "string" && score.trim() !== "" && Number.isFinite(Number(score)) ? Number(score) : null;
}

const BODY_START = 200;

/**
 * A target called through a target config: URL, headers, query parameters and body with their
 * placeholders filled, plus the trace headers (`traceparent`, `baggage`, always added), and the
 * reply mapped through the config's JSONPaths. HTTP errors, timeouts, bodies that are not JSON and
 * mappings that find nothing come back as `{ok: false, reason}` (`target_error`).
 * @param k the largest k asked (`{{k}}`).
 */
export function configTarget(cfg: TargetConfig, options: { readonly k: number; readonly timeoutMs: number; readonly file: string; readonly client?: TargetClient }): Target {
  const client = options.client ?? inlineTargetClient();
  return {
    description: `${cfg.method} ${cfg.url} (${options.file})`,
    ...(client.inFlight !== null ? { inFlight: client.inFlight } : {}),
    async ask(question: string, trace: TraceHeaders, request?: TargetRequest, cancel?: AbortSignal): Promise<TargetResult> {
      const vars: PlaceholderValues = { question, k: options.k, golden_id: request?.golden_id ?? "", run_id: request?.run_id ?? "" };
      const { url, init } = filledRequest(cfg, vars, trace);
      const got = await client.fetchText(url, init, options.timeoutMs, BODY_START, cancel);
      if (!got.ok) return { ok: false, reason: got.reason, latency_ms: got.latency_ms };
      return readReply(cfg, got.text, got.latency_ms);
    },
  };
}

/** The config's request with its placeholders filled, plus the trace headers (`traceparent`, `baggage` appended to any configured). */
function filledRequest(cfg: TargetConfig, vars: PlaceholderValues, trace: TraceHeaders): { url: URL; init: { method: string; headers: Record<string, string>; body?: string } } {
  const url = new URL(fillPlaceholders(cfg.url, vars, encodeURIComponent) as string);
  for (const [name, v] of Object.entries(cfg.queryParams)) url.searchParams.set(name, String(fillPlaceholders(v, vars)));
  const headers: Record<string, string> = { accept: "application/json" };
  for (const [name, v] of Object.entries(cfg.headers)) headers[name.toLowerCase()] = String(fillPlaceholders(v, vars));
  headers["traceparent"] = trace.traceparent;
  headers["baggage"] = headers["baggage"] ? `${headers["baggage"]},${trace.baggage}` : trace.baggage;
  let body: string | undefined;
  if (cfg.method !== "GET" && cfg.body !== undefined) {
    const filled = fillPlaceholders(cfg.body, vars);
    body = typeof filled === "string" ? filled : JSON.stringify(filled);
    headers["content-type"] ??= "application/json";
  }
  return { url, init: { method: cfg.method, headers, ...(body !== undefined ? { body } : {}) } };
}

/** A reply's text parsed and mapped through the config; a reply that is not JSON or that the mapping cannot read is `{ok: false}`. */
function readReply(cfg: TargetConfig, text: string, latency: number): TargetResult {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, reason: `reply is not JSON; body starts ${JSON.stringify(text.slice(0, BODY_START))}`, latency_ms: latency };
  }
  try {
    const { answer, contexts } = mapTargetReply(cfg, json);
    return { ok: true, reply: { answer, contexts, model: null, pipeline_version: null }, latency_ms: latency };
  } catch (err) {
    // A reply the mapping cannot walk (a recursive-descent path over a reply nested thousands deep
    // overflows jsonpath-plus's recursion: a RangeError) is the target's fault like any other.
    const why = err instanceof MappingError ? err.message : `the reply could not be mapped (${(err as Error).message})`;
    return { ok: false, reason: `${why}; body starts ${JSON.stringify(text.slice(0, BODY_START))}`, latency_ms: latency };
  }
}
