import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { type ClickHouseClient, ClickHouseError, ClickHouseLogLevel, createClient } from "@clickhouse/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ClickHouseFront, startClickHouseFront } from "../../scripts/clickhouse-front/front.mjs";
import { openStore } from "../../store/src/client.js";
import { storeFailure } from "../../store/src/errors.js";
import { rows } from "../helpers/streaming.js";

// The test front (scripts/clickhouse-front) answers ClickHouse's HTTP interface over the embedded
// engine; here the real @clickhouse/client talks to it the way the server path of the store does.
let dir: string;
let front: ClickHouseFront;
let client: ClickHouseClient;
const DB = `front_${process.pid}`;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "ragmeter-front-"));
  front = await startClickHouseFront({ dataDir: dir, sessions: 2 });
  client = createClient({ url: front.url });
  await client.command({ query: `CREATE DATABASE IF NOT EXISTS ${DB}` });
  await client.command({ query: `CREATE TABLE ${DB}.t (id UInt64, s String, tags Array(String), version UInt64) ENGINE = ReplacingMergeTree(version) ORDER BY id` });
});
afterAll(async () => {
  await client?.close();
  await front?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe("ClickHouse HTTP front over the embedded engine", () => {
  it("answers ping, and GET / without a query, with Ok.", async () => {
    expect(await client.ping()).toEqual({ success: true });
    const r = await fetch(`${front.url}/`);
    expect([r.status, await r.text()]).toEqual([200, "Ok.\n"]);
  });

  it("inserts JSONEachRow rows and reads them back in the formats the client asks for, with bound parameters", async () => {
    const values = [
      { id: "18446744073709551615", s: "tab\there 'quoted' back\\slash", tags: ["a", "b'c"], version: 1 },
      { id: "2", s: "two", tags: [], version: 1 },
      { id: "2", s: "two, later", tags: ["x"], version: 2 },
    ];
    await client.insert({ table: `${DB}.t`, values, format: "JSONEachRow" });
    // UInt64 quoted (the store's session setting), FINAL keeps the later version of id 2.
    const rs = await client.query({
      query: `SELECT id, s, tags FROM ${DB}.t FINAL WHERE s != {skip:String} AND has({want:Array(String)}, s) ORDER BY id`,
      query_params: { skip: "none", want: ["two, later", "tab\there 'quoted' back\\slash"] },
      format: "JSONEachRow",
      clickhouse_settings: { output_format_json_quote_64bit_integers: 1 },
    });
    expect(await rs.json()).toEqual([
      { id: "2", s: "two, later", tags: ["x"] },
      { id: "18446744073709551615", s: "tab\there 'quoted' back\\slash", tags: ["a", "b'c"] },
    ]);
    const json = await (await client.query({ query: `SELECT count() AS c FROM ${DB}.t`, format: "JSON" })).json<{ c: number }>();
    // optimize_on_insert: the block's two rows of id 2 were collapsed when it was written.
    expect(json.data).toEqual([{ c: 2 }]);
    expect(json.meta).toEqual([{ name: "c", type: "UInt64" }]);
    const compact = await (await client.query({ query: `SELECT id, s FROM ${DB}.t FINAL WHERE id = {id:UInt64}`, query_params: { id: 2 }, format: "JSONCompactEachRow" })).json();
    expect(compact).toEqual([[2, "two, later"]]);
    const tsv = await (await client.query({ query: `SELECT s FROM ${DB}.t FINAL WHERE id = 2`, format: "TabSeparated" })).text();
    expect(tsv).toBe("two, later\n");
  });

  it("takes bound parameters past 16 KiB of URL (a scoring batch's trace ids), as ClickHouse's 1 MiB http_max_uri_size does", async () => {
    const ids = Array.from({ length: 5000 }, (_, i) => i.toString(16).padStart(32, "0"));
    const rs = await client.query({ query: "SELECT length({ids:Array(String)}) AS n, {ids:Array(String)}[5000] AS last", query_params: { ids }, format: "JSONEachRow" });
    expect(await rs.json()).toEqual([{ n: 5000, last: ids[4999] }]);
  });

  it("applies settings to their statement alone", async () => {
    const threads = async (settings?: Record<string, number>) =>
      (
        await (
          await client.query({ query: "SELECT getSetting('max_threads') AS v", format: "JSONEachRow", ...(settings ? { clickhouse_settings: settings } : {}) })
        ).json<{ v: number }>()
      )[0]?.v;
    const before = await threads();
    expect(await threads({ max_threads: before === 1 ? 3 : 1 })).toBe(before === 1 ? 3 : 1);
    // Both engine connections of the pool (sessions: 2) are back to the default, whichever runs it.
    expect(await Promise.all([threads(), threads(), threads()])).toEqual([before, before, before]);
  });

  it("answers errors as ClickHouse does: status by type, the code header, a body the client parses", async () => {
    const syntax = await client.query({ query: "SELEC 1", format: "JSONEachRow" }).catch((e: unknown) => e);
    expect(syntax).toBeInstanceOf(ClickHouseError);
    expect((syntax as ClickHouseError).code).toBe("62");
    expect((syntax as ClickHouseError).type).toBe("SYNTAX_ERROR");
    expect(storeFailure(syntax).retriable).toBe(false);
    const missing = await client.query({ query: `SELECT * FROM ${DB}.nope`, format: "JSONEachRow" }).catch((e: unknown) => e);
    expect((missing as ClickHouseError).type).toBe("UNKNOWN_TABLE");
    const badRows = await client.insert({ table: `${DB}.t`, values: [{ id: "not a number" }], format: "JSONEachRow" }).catch((e: unknown) => e);
    expect((badRows as ClickHouseError).type).toBe("CANNOT_PARSE_INPUT_ASSERTION_FAILED");
    const raw = await fetch(`${front.url}/?query=${encodeURIComponent(`SELECT * FROM ${DB}.nope`)}`);
    expect(raw.status).toBe(404);
    expect(raw.headers.get("x-clickhouse-exception-code")).toBe("60");
    expect(await raw.text()).toMatch(new RegExp(`^Code: 60\\. DB::Exception: .*\\(UNKNOWN_TABLE\\) \\(version ${front.version.replaceAll(".", "\\.")}\\)\\n$`, "su"));
    const parse = await fetch(`${front.url}/`, { method: "POST", body: "SELEC 1" });
    expect(parse.status).toBe(400);
    // A server that is gone is retriable for the store (the client's connection error).
    const gone = createClient({ url: "http://127.0.0.1:1", request_timeout: 2000, log: { level: ClickHouseLogLevel.OFF } });
    const down = await gone.query({ query: "SELECT 1" }).catch((e: unknown) => e);
    await gone.close();
    expect(storeFailure(down).retriable).toBe(true);
  });

  it("answers the headers the client reads: query id, summary, format", async () => {
    const r = await client.query({ query: "SELECT number FROM numbers(5)", format: "JSONEachRow", query_id: "front-test-q1" });
    expect(r.query_id).toBe("front-test-q1");
    expect(r.response_headers["x-clickhouse-query-id"]).toBe("front-test-q1");
    expect(r.response_headers["x-clickhouse-format"]).toBe("JSONEachRow");
    const summary = JSON.parse(String(r.response_headers["x-clickhouse-summary"])) as Record<string, string>;
    expect(summary["read_rows"]).toBe("5");
    expect(await r.json()).toHaveLength(5);
    // An INSERT without rows is a no-op, as on a server (the engine alone refuses it: "No data to insert").
    const empty = await fetch(`${front.url}/?query=${encodeURIComponent(`INSERT INTO ${DB}.t FORMAT JSONEachRow`)}`, { method: "POST", body: "" });
    expect([empty.status, JSON.parse(empty.headers.get("x-clickhouse-summary") ?? "{}").written_rows]).toEqual([200, "0"]);
  });

  it("takes gzip request bodies and gives gzip answers when the client asks for them", async () => {
    const gz = createClient({ url: front.url, compression: { request: true, response: true } });
    try {
      await gz.insert({ table: `${DB}.t`, values: [{ id: "7", s: "zipped", tags: [], version: 1 }], format: "JSONEachRow" });
      const r = await gz.query({ query: `SELECT s FROM ${DB}.t WHERE id = 7`, format: "JSONEachRow" });
      expect(r.response_headers["content-encoding"]).toBe("gzip");
      expect(await r.json()).toEqual([{ s: "zipped" }]);
    } finally {
      await gz.close();
    }
  });

  it("carries the store's server path: migrations, then a second opening of the same store beside the first", async () => {
    const database = `${DB}_store`;
    const a = await openStore({ kind: "server", url: front.url, database });
    const b = await openStore({ kind: "server", url: front.url, database });
    try {
      const tables = await rows<{ name: string }>(a, "SELECT name FROM system.tables WHERE database = {db:String} AND name IN ('spans', 'scores', 'interactions') ORDER BY name", {
        db: database,
      });
      expect(tables.map((t) => t.name)).toEqual(["interactions", "scores", "spans"]);
      // Every migration recorded once, whichever opening applied it.
      const migrations = await rows<{ c: string; d: string }>(b, "SELECT count() AS c, uniqExact(id) AS d FROM DB.schema_migrations FINAL");
      expect(migrations[0]?.c).toBe(migrations[0]?.d);
      expect(Number(migrations[0]?.c)).toBeGreaterThan(5);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
