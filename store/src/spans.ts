import type { ClickHouseSettings } from "@clickhouse/client";
import { chunkHash } from "@ragmeter/core/domain/chunkHash";
import { attachChunkTexts, detachChunkTexts } from "@ragmeter/core/domain/chunkRefs";
import type { StoredLog, StoredSpan } from "@ragmeter/core/domain/spans";
import { z } from "zod";
import { chunkTexts, saveChunks } from "./chunks.js";
import type { Store } from "./client.js";
import { utcTime } from "./rows.js";

/** Where a batch of spans came from (Kafka partition and offset, or -1 for in-process hand-off). */
export interface SpanOrigin {
  readonly partition: number;
  readonly offset: string;
}

/**
 * Writes spans (key `(trace_id, span_id)`, design §6): a re-sent span replaces itself, so an
 * exporter retry or a Kafka redelivery never double counts. The retrieved chunks' texts of their
 * attributes go to `chunks` first (`detachChunkTexts`), and the spans keep references to them and
 * their hashes (`chunk_hashes`): a span is never stored before the chunks it refers to.
 * @param receivedAt ms since the epoch; drives the quiet window.
 */
export async function saveSpans(store: Store, spans: readonly StoredSpan[], origin: SpanOrigin, receivedAt: number): Promise<void> {
  if (spans.length === 0) return;
  const version = store.nextVersion();
  const hashes: (readonly string[])[] = [];
  const texts: { text: string; document_id: string; chunk_hash: string }[] = [];
  const rows = spans.map((s) => {
    const d = detachChunkTexts(s.attributes, chunkHash);
    if (d === null) {
      hashes.push(NONE);
      return s;
    }
    hashes.push([...d.texts.keys()]);
    for (const [chunk_hash, c] of d.texts) texts.push({ text: c.text, document_id: c.document_id, chunk_hash });
    return { ...s, attributes: d.attributes };
  });
  await saveChunks(store, texts, version, receivedAt);
  await store.client.insert({
    table: `${store.database}.spans`,
    // Compact rows (arrays in SPAN_COLUMNS' order): cheaper to encode and for the engine to parse,
    // whose one statement lane the scorer's inserts and reads share.
    columns: [...SPAN_COLUMNS],
    values: rows.map((s, i) => [
      s.trace_id,
      s.span_id,
      s.parent_span_id,
      s.name,
      s.kind,
      s.start_time_unix_nano,
      s.end_time_unix_nano,
      s.status_code,
      s.scope_name,
      s.service_name,
      JSON.stringify(s.attributes),
      JSON.stringify(s.resource_attributes),
      JSON.stringify(s.events),
      receivedAt,
      origin.partition,
      origin.offset,
      version,
      hashes[i],
    ]),
    format: "JSONCompactEachRow",
  });
}

const NONE: readonly string[] = [];

/** The columns {@link saveSpans} writes, in its rows' order. */
const SPAN_COLUMNS = [
  "trace_id",
  "span_id",
  "parent_span_id",
  "name",
  "kind",
  "start_time_unix_nano",
  "end_time_unix_nano",
  "status_code",
  "scope_name",
  "service_name",
  "attributes",
  "resource_attributes",
  "events",
  "received_at",
  "kafka_partition",
  "kafka_offset",
  "version",
  "chunk_hashes",
] as const;

/** Writes OTLP log records (GenAI content events), keyed by `(trace_id, span_id, record_id)`. */
export async function saveLogs(store: Store, logs: readonly StoredLog[], receivedAt: number): Promise<void> {
  if (logs.length === 0) return;
  const version = store.nextVersion();
  await store.client.insert({
    table: `${store.database}.logs`,
    values: logs.map((l) => ({ ...l, body: JSON.stringify(l.body), attributes: JSON.stringify(l.attributes), received_at: receivedAt, version })),
    format: "JSONEachRow",
  });
}

const settledRow = z.object({ trace_id: z.string(), last: utcTime });

/**
 * Traces ready to score (design §6): the last span arrived more than `quietMs` before `now`, and
 * the trace has no interaction scored under `promptVersion` since that span arrived, and it was not
 * forgotten (`forgotten_traces`). Oldest first.
 */
export async function settledTraces(store: Store, opts: { quietMs: number; promptVersion: string; now: number; limit: number }): Promise<{ trace_id: string; last: string }[]> {
  const db = store.database;
  const rs = await store.client.query({
    query: `SELECT s.trace_id AS trace_id, s.last AS last FROM
        (SELECT trace_id, max(received_at) AS last FROM ${db}.spans FINAL GROUP BY trace_id) AS s
      LEFT JOIN
        (SELECT trace_id, max(created_at) AS scored FROM ${db}.interactions FINAL WHERE judge_prompt_version = {pv:String} GROUP BY trace_id) AS i
      ON s.trace_id = i.trace_id
      WHERE s.last <= fromUnixTimestamp64Milli({cutoff:Int64}, 'UTC') AND i.scored < s.last
        AND s.trace_id NOT IN (SELECT trace_id FROM ${db}.forgotten_traces)
      ORDER BY s.last, s.trace_id
      LIMIT {limit:UInt32}`,
    query_params: { pv: opts.promptVersion, cutoff: opts.now - opts.quietMs, limit: opts.limit },
    format: "JSONEachRow",
  });
  return (await rs.json<unknown>()).map((r) => settledRow.parse(r));
}

const spanRow = z.object({
  trace_id: z.string(),
  span_id: z.string(),
  parent_span_id: z.string(),
  name: z.string(),
  kind: z.number(),
  start_time_unix_nano: z.string(),
  end_time_unix_nano: z.string(),
  status_code: z.number(),
  attributes: z.string().transform((s) => JSON.parse(s) as StoredSpan["attributes"]),
  resource_attributes: z.string().transform((s) => JSON.parse(s) as StoredSpan["resource_attributes"]),
  scope_name: z.string(),
  events: z.string().transform((s) => JSON.parse(s) as StoredSpan["events"]),
  service_name: z.string(),
  chunk_hashes: z.array(z.string()),
});
const logRow = z.object({
  trace_id: z.string(),
  span_id: z.string(),
  record_id: z.string(),
  event_name: z.string(),
  time_unix_nano: z.string(),
  body: z.string().transform((s) => JSON.parse(s) as StoredLog["body"]),
  attributes: z.string().transform((s) => JSON.parse(s) as StoredLog["attributes"]),
});

/**
 * Settings of the read-back on the embedded engine: small blocks. The trace ids of a batch are spread
 * over the whole key range, so the read touches most granules of every part; with 65,536-row blocks
 * and a sort of the whole result one 5,000-trace read held about 140 MiB in the engine, with these
 * and the per-trace sort here about 85 MiB (55 MiB on one thread, which cost a third of the
 * throughput: the engine runs one statement at a time; bench:scorer, issue 15). A server keeps its
 * own settings.
 */
const EMBEDDED_READ_SETTINGS: ClickHouseSettings = { max_block_size: "4096", preferred_block_size_bytes: "262144" };

/** Byte order of ASCII strings, as ClickHouse's ORDER BY on a String. */
const byBytes = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * A trace's spans in the order the scorer reads them: by start time as its decimal text (the order
 * `ORDER BY toString(start_time_unix_nano)` gave), then span id.
 */
export function spanOrder(a: Pick<StoredSpan, "start_time_unix_nano" | "span_id">, b: Pick<StoredSpan, "start_time_unix_nano" | "span_id">): number {
  return byBytes(a.start_time_unix_nano, b.start_time_unix_nano) || byBytes(a.span_id, b.span_id);
}

/** A trace's log records in read order: by time as its decimal text, then record id. */
export function logOrder(a: Pick<StoredLog, "time_unix_nano" | "record_id">, b: Pick<StoredLog, "time_unix_nano" | "record_id">): number {
  return byBytes(a.time_unix_nano, b.time_unix_nano) || byBytes(a.record_id, b.record_id);
}

const countRow = z.object({ trace_id: z.string(), spans: z.coerce.number(), logs: z.coerce.number() });

/**
 * Stored rows of the given traces, before merging (a span stored twice counts twice): spans and
 * log records per trace id; a trace with none is absent. Reads the key column only.
 */
export async function storedRowCounts(store: Store, traceIds: readonly string[]): Promise<Map<string, { spans: number; logs: number }>> {
  const out = new Map<string, { spans: number; logs: number }>();
  if (traceIds.length === 0) return out;
  const db = store.database;
  const rs = await store.client.query({
    query: `SELECT trace_id, sum(s) AS spans, sum(l) AS logs FROM (
        SELECT trace_id, 1 AS s, 0 AS l FROM ${db}.spans WHERE trace_id IN {ids:Array(String)}
        UNION ALL
        SELECT trace_id, 0 AS s, 1 AS l FROM ${db}.logs WHERE trace_id IN {ids:Array(String)})
      GROUP BY trace_id`,
    query_params: { ids: traceIds },
    format: "JSONEachRow",
  });
  for (const r of await rs.json<unknown>()) {
    const c = countRow.parse(r);
    out.set(c.trace_id, { spans: c.spans, logs: c.logs });
  }
  return out;
}

/**
 * Puts the chunks' texts back into spans stored with references (one lookup for all of them); a
 * chunk no longer stored (retention, `forget`) reads as a blank text.
 */
async function withSpanChunkTexts(store: Store, referring: readonly Referring[]): Promise<void> {
  if (referring.length === 0) return;
  const texts = await chunkTexts(
    store,
    referring.flatMap((r) => r.chunk_hashes),
  );
  for (const { list, index, chunk_hashes } of referring) {
    const s = list[index] as StoredSpan;
    list[index] = { ...s, attributes: attachChunkTexts(s.attributes, texts, chunk_hashes) };
  }
}

/** A span read with chunk references: where it sits in its trace's list, and the hashes it refers to. */
type Referring = { readonly list: StoredSpan[]; readonly index: number; readonly chunk_hashes: readonly string[] };

/**
 * All stored spans and log records of the given traces, grouped by trace id, each trace's in
 * {@link spanOrder} / {@link logOrder} (sorted here per trace: the engine then streams the rows
 * instead of sorting the whole batch).
 */
export async function loadTraces(store: Store, traceIds: readonly string[]): Promise<Map<string, { spans: StoredSpan[]; logs: StoredLog[] }>> {
  const out = new Map<string, { spans: StoredSpan[]; logs: StoredLog[] }>();
  if (traceIds.length === 0) return out;
  for (const id of traceIds) out.set(id, { spans: [], logs: [] });
  const db = store.database;
  const settings = store.target.kind === "embedded" ? { clickhouse_settings: EMBEDDED_READ_SETTINGS } : {};
  const spans = await store.client.query({
    query: `SELECT trace_id, span_id, parent_span_id, name, kind, toString(start_time_unix_nano) AS start_time_unix_nano, toString(end_time_unix_nano) AS end_time_unix_nano,
        status_code, attributes, resource_attributes, scope_name, events, service_name, chunk_hashes
      FROM ${db}.spans FINAL WHERE trace_id IN {ids:Array(String)}`,
    query_params: { ids: traceIds },
    format: "JSONEachRow",
    ...settings,
  });
  const referring: Referring[] = [];
  for (const r of await spans.json<unknown>()) {
    const { chunk_hashes, ...s } = spanRow.parse(r);
    const list = out.get(s.trace_id)?.spans;
    if (list === undefined) continue;
    list.push(s);
    if (chunk_hashes.length > 0) referring.push({ list, index: list.length - 1, chunk_hashes });
  }
  await withSpanChunkTexts(store, referring);
  const logs = await store.client.query({
    query: `SELECT trace_id, span_id, record_id, event_name, toString(time_unix_nano) AS time_unix_nano, body, attributes
      FROM ${db}.logs FINAL WHERE trace_id IN {ids:Array(String)}`,
    query_params: { ids: traceIds },
    format: "JSONEachRow",
    ...settings,
  });
  for (const r of await logs.json<unknown>()) {
    const l = logRow.parse(r);
    out.get(l.trace_id)?.logs.push(l);
  }
  for (const t of out.values()) {
    if (t.spans.length > 1) t.spans.sort(spanOrder);
    if (t.logs.length > 1) t.logs.sort(logOrder);
  }
  return out;
}
