#!/usr/bin/env node
// A ClickHouse-HTTP-compatible front over the embedded engine (chdb), for tests and benchmarks only:
// no ClickHouse server installs on these machines, and the embedded store is owned by one process,
// so several `ragmeter scorer` processes share one store through this front as they would share a
// server (CLICKHOUSE_URL). It answers the part of ClickHouse's HTTP interface that @clickhouse/client
// uses (docs/scale-out.md, "The test front", says what it does not cover):
//
//   node scripts/clickhouse-front/front.mjs --path DIR [--port 0] [--host 127.0.0.1] [--sessions 4]
//
// prints `clickhouse front listening http://HOST:PORT` once it answers; SIGTERM/SIGINT close it.
//
// - GET|HEAD /ping, GET / without a query, GET /replicas_status: "Ok.\n".
// - GET|POST /: the statement is the `query` URL parameter, then a line feed and the body (an
//   INSERT's rows: `INSERT INTO t (…) FORMAT JSONEachRow` in the URL, the rows in the body), or the
//   body alone; run by the engine as it is, so the output is the engine's own encoding of the format
//   the statement names (`FORMAT JSONEachRow`, `JSON`, `JSONCompactEachRow`, …) or of `default_format`
//   (TabSeparated when absent), never re-encoded here. The whole result is buffered before the
//   answer starts, so a failure is always an HTTP error status (what `wait_end_of_query=1` gives).
// - `param_<name>`: query parameters, handed to the engine in ClickHouse's escaped text form as the
//   client sent them (`SET param_<name> = '<value>'`).
// - Every other URL parameter that is not an HTTP-layer one is a setting, applied to that statement
//   alone: settings the previous statement on the same engine connection had and this one does not
//   are set back to DEFAULT. `database` runs the statement in that database (`USE`).
// - Answers: X-ClickHouse-Query-Id (the client's or a new UUID), X-ClickHouse-Format,
//   X-ClickHouse-Timezone, X-ClickHouse-Server-Display-Name, X-ClickHouse-Summary (read rows and bytes
//   and elapsed time as the engine reports them); errors as ClickHouse sends them: the status
//   ClickHouse maps the error type to (400 parse and syntax errors, 404 unknown table/database/…,
//   500 otherwise), X-ClickHouse-Exception-Code, and the body `Code: N. DB::Exception: … (TYPE)
//   (version V)` that the client parses into a ClickHouseError with `code` and `type`.
// - gzip/deflate/br/zstd request bodies (Content-Encoding) and responses (enable_http_compression=1
//   and Accept-Encoding).
// - Concurrency: a pool of engine connections to the one data directory (`--sessions`), each running
//   one statement at a time, as the embedded engine does; requests wait for a free one in order.
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import { createRequire } from "node:module";
import { hostname } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import zlib from "node:zlib";
import { runIfMain } from "../lib/process.mjs";

const require = createRequire(import.meta.url);

/** URL parameters of the HTTP layer, not settings of the statement. */
const HTTP_PARAMS = new Set([
  "query",
  "database",
  "query_id",
  "default_format",
  "user",
  "password",
  "quota_key",
  "role",
  "session_timeout",
  "session_check",
  // Accepted without effect: the front buffers every answer before it starts (wait_end_of_query's
  // effect, always), sends no progress headers, and compresses by Accept-Encoding alone.
  "wait_end_of_query",
  "buffer_size",
  "send_progress_in_http_headers",
  "http_headers_progress_interval_ms",
  "http_response_buffer_size",
  "http_wait_end_of_query",
  "enable_http_compression",
  "http_zlib_compression_level",
  "http_native_compression_disable_checksumming_on_decompress",
  "cancel_http_readonly_queries_on_client_close",
  "add_http_cors_header",
]);

/** HTTP statuses by error type, as ClickHouse's HTTP handler maps them (others: 500). */
const STATUS_BY_TYPE = new Map([
  ...[
    "CANNOT_PARSE_TEXT",
    "CANNOT_PARSE_ESCAPE_SEQUENCE",
    "CANNOT_PARSE_QUOTED_STRING",
    "CANNOT_PARSE_DATE",
    "CANNOT_PARSE_DATETIME",
    "CANNOT_PARSE_NUMBER",
    "CANNOT_PARSE_DOMAIN_VALUE_FROM_STRING",
    "CANNOT_PARSE_IPV4",
    "CANNOT_PARSE_IPV6",
    "CANNOT_PARSE_INPUT_ASSERTION_FAILED",
    "CANNOT_PARSE_UUID",
    "DUPLICATE_COLUMN",
    "ILLEGAL_COLUMN",
    "UNKNOWN_ELEMENT_IN_AST",
    "UNKNOWN_TYPE_OF_AST_NODE",
    "THERE_IS_NO_COLUMN",
    "TOO_DEEP_AST",
    "TOO_BIG_AST",
    "UNEXPECTED_AST_STRUCTURE",
    "SYNTAX_ERROR",
    "INCORRECT_DATA",
    "TYPE_MISMATCH",
    "VALUE_IS_OUT_OF_RANGE_OF_DATA_TYPE",
    "UNKNOWN_QUERY_PARAMETER",
    "BAD_QUERY_PARAMETER",
  ].map((t) => [t, 400]),
  ...[
    "UNKNOWN_TABLE",
    "UNKNOWN_FUNCTION",
    "UNKNOWN_IDENTIFIER",
    "UNKNOWN_TYPE",
    "UNKNOWN_STORAGE",
    "UNKNOWN_DATABASE",
    "UNKNOWN_SETTING",
    "UNKNOWN_DIRECTION_OF_SORTING",
    "UNKNOWN_AGGREGATE_FUNCTION",
    "UNKNOWN_FORMAT",
    "UNKNOWN_DATABASE_ENGINE",
    "UNKNOWN_TYPE_OF_QUERY",
    "UNKNOWN_ROLE",
  ].map((t) => [t, 404]),
  ["QUERY_IS_TOO_LARGE", 413],
  ["NOT_IMPLEMENTED", 501],
  ["SOCKET_TIMEOUT", 503],
  ["CANNOT_OPEN_FILE", 503],
  ["CANNOT_SCHEDULE_TASK", 503],
  ["TIMEOUT_EXCEEDED", 408],
]);

const CONTENT_TYPE = (format) => {
  if (/^JSON/u.test(format)) return "application/json; charset=UTF-8";
  if (/^(TabSeparated|TSV)/u.test(format)) return "text/tab-separated-values; charset=UTF-8";
  if (/^CSV/u.test(format)) return "text/csv; charset=UTF-8";
  if (/^(Pretty|Vertical|Markdown|XML|Values|Raw|LineAsString)/u.test(format)) return "text/plain; charset=UTF-8";
  return "application/octet-stream";
};

const DECOMPRESS = {
  gzip: promisify(zlib.gunzip),
  deflate: promisify(zlib.inflate),
  br: promisify(zlib.brotliDecompress),
  ...(zlib.zstdDecompress ? { zstd: promisify(zlib.zstdDecompress) } : {}),
};
const COMPRESS = {
  gzip: promisify(zlib.gzip),
  deflate: promisify(zlib.deflate),
  br: promisify(zlib.brotliCompress),
  ...(zlib.zstdCompress ? { zstd: promisify(zlib.zstdCompress) } : {}),
};

/** An error answered in ClickHouse's shape: `Code: N. DB::Exception: … (TYPE)`. */
class FrontError extends Error {
  constructor(code, type, message) {
    super(`Code: ${code}. DB::Exception: ${message}. (${type})`);
    this.clickhouseCode = code;
  }
}

/** A ClickHouse SQL literal of a setting or parameter value. */
const literal = (v) => (/^-?\d+(\.\d+)?$/u.test(v) ? v : `'${v.replaceAll("\\", "\\\\").replaceAll("'", "\\'")}'`);

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/u;
/** A setting value no request sends: the connection's value is not known. */
const UNKNOWN = "\u0000unknown";

/**
 * The `SET …;` statements that bring one engine connection from the settings and parameters it has
 * to the ones of this request (settings it has and the request does not: back to DEFAULT).
 */
function settingsPrefix(conn, settings, params) {
  const assign = [];
  for (const [k, v] of settings) if (conn.settings.get(k) !== v) assign.push(`${k} = ${literal(v)}`);
  for (const k of conn.settings.keys()) if (!settings.has(k)) assign.push(`${k} = DEFAULT`);
  // Parameters always: the text form is what the engine parses by the type the statement declares.
  for (const [k, v] of params) assign.push(`param_${k} = '${v.replaceAll("\\", "\\\\").replaceAll("'", "\\'")}'`);
  return assign.length === 0 ? "" : `SET ${assign.join(", ")}; `;
}

/** The output format a statement's answer is in: its last `FORMAT x`, else `default_format`, else TabSeparated. */
function outputFormat(sql, defaultFormat) {
  const head = /^\s*INSERT\b/iu.test(sql) ? "" : sql;
  const m = /\bFORMAT\s+([A-Za-z][A-Za-z0-9]*)\s*;?\s*$/iu.exec(head);
  return m?.[1] ?? defaultFormat ?? "TabSeparated";
}

async function readBody(req) {
  const chunks = [];
  for await (const c of req) chunks.push(c);
  const raw = Buffer.concat(chunks);
  const enc = (req.headers["content-encoding"] ?? "").trim().toLowerCase();
  if (enc === "" || enc === "identity") return raw;
  const d = DECOMPRESS[enc];
  if (!d) throw new FrontError(48, "NOT_IMPLEMENTED", `Content-Encoding ${enc} is not supported by the test front`);
  return d(raw);
}

/**
 * Starts the front on an engine opened at `dataDir`.
 * @returns its URL and close(); rejects when chdb is missing or the port is taken.
 */
export async function startClickHouseFront({ dataDir, host = "127.0.0.1", port = 0, sessions = 4, log = () => {} }) {
  const { Session } = require("chdb");
  const dir = path.resolve(dataDir);
  const pool = Array.from({ length: Math.max(1, sessions) }, () => ({ session: new Session(dir), settings: new Map(), busy: false }));
  const waiting = [];
  const take = () =>
    new Promise((resolve) => {
      const free = pool.find((c) => !c.busy);
      if (free) {
        free.busy = true;
        resolve(free);
      } else waiting.push(resolve);
    });
  const give = (conn) => {
    const next = waiting.shift();
    if (next) next(conn);
    else conn.busy = false;
  };
  const version = (await pool[0].session.queryAsync("SELECT version()", { format: "TabSeparated" })).text().trim();
  const displayName = hostname();
  const stats = { requests: 0, errors: 0 };

  async function run(sql, { settings, params, database, format }) {
    const conn = await take();
    const prefix = settingsPrefix(conn, settings, params);
    try {
      const use = database ? `USE ${database}; ` : "";
      const result = await conn.session.queryAsync(`${prefix}${use}${sql}`, { format });
      conn.settings = new Map(settings);
      return result;
    } catch (err) {
      // Whether the SET took effect is unknown now: every setting involved is set again next time.
      if (prefix !== "") conn.settings = new Map([...conn.settings.keys(), ...settings.keys()].map((k) => [k, UNKNOWN]));
      throw err;
    } finally {
      give(conn);
    }
  }

  async function answerQuery(req, res, url) {
    const params = new Map();
    const settings = new Map();
    for (const [k, v] of url.searchParams) {
      if (k.startsWith("param_")) params.set(k.slice(6), v);
      else if (HTTP_PARAMS.has(k)) continue;
      else if (k === "session_id") throw new FrontError(48, "NOT_IMPLEMENTED", "HTTP sessions (session_id) are not supported by the test front");
      else if (k === "compress" || k === "decompress") {
        if (v !== "0") throw new FrontError(48, "NOT_IMPLEMENTED", `ClickHouse's own block compression (${k}=1) is not supported by the test front`);
      } else if (!NAME.test(k)) throw new FrontError(115, "UNKNOWN_SETTING", `Unknown setting '${k}'`);
      else settings.set(k, v);
    }
    const database = url.searchParams.get("database") ?? "";
    if (database !== "" && !NAME.test(database)) throw new FrontError(81, "UNKNOWN_DATABASE", `Database ${database} does not exist`);
    const inUrl = url.searchParams.get("query") ?? "";
    const body = req.method === "POST" ? (await readBody(req)).toString("utf8") : "";
    const sql = inUrl !== "" ? (body !== "" ? `${inUrl}\n${body}` : inUrl) : body;
    if (sql.trim() === "") throw new FrontError(62, "SYNTAX_ERROR", "Empty query");
    const format = outputFormat(sql, url.searchParams.get("default_format") ?? undefined);
    // An INSERT with no rows: a no-op, as a server answers it (the engine's parser would refuse it).
    // (Tested on the URL's statement alone: a regular expression over an insert's rows cost 2 % of the
    // front's main thread in a profile.)
    const insert = /^\s*INSERT\b/iu.test(sql);
    const emptyInsert = insert && body.trim() === "" && /\bFORMAT\s+\w+\s*$/iu.test(inUrl);
    const result = emptyInsert ? null : await run(sql, { settings, params, database, format });
    const rows = String(result?.rowsRead ?? 0);
    const bytes = String(result?.bytesRead ?? 0);
    const summary = {
      read_rows: rows,
      read_bytes: bytes,
      written_rows: insert ? rows : "0",
      written_bytes: insert ? bytes : "0",
      total_rows_to_read: "0",
      result_rows: insert ? "0" : rows,
      result_bytes: insert ? "0" : bytes,
      elapsed_ns: String(Math.round((result?.elapsed ?? 0) * 1e9)),
    };
    let out = result === null ? Buffer.alloc(0) : Buffer.from(result.bytes());
    const headers = {
      "Content-Type": CONTENT_TYPE(format),
      "X-ClickHouse-Format": format,
      "X-ClickHouse-Summary": JSON.stringify(summary),
    };
    if (settings.get("enable_http_compression") === "1" || url.searchParams.get("enable_http_compression") === "1") {
      const accepted = String(req.headers["accept-encoding"] ?? "")
        .split(",")
        .map((s) => s.trim().split(";")[0]);
      const codec = accepted.find((c) => COMPRESS[c]);
      if (codec) {
        out = await COMPRESS[codec](out);
        headers["Content-Encoding"] = codec;
      }
    }
    res.writeHead(200, { ...headers, "Content-Length": out.length });
    res.end(req.method === "HEAD" ? undefined : out);
  }

  // ClickHouse takes URLs up to http_max_uri_size (1 MiB by default): bound parameters of a batch of
  // trace ids travel there (Node's own bound, 16 KiB, answers 431 to them).
  const server = createServer({ maxHeaderSize: 2 * 1024 * 1024 }, (req, res) => {
    stats.requests++;
    const url = new URL(req.url ?? "/", "http://front");
    const queryId = url.searchParams.get("query_id") || randomUUID();
    res.setHeader("X-ClickHouse-Query-Id", queryId);
    res.setHeader("X-ClickHouse-Timezone", "UTC");
    res.setHeader("X-ClickHouse-Server-Display-Name", displayName);
    const ok = () => {
      res.writeHead(200, { "Content-Type": "text/html; charset=UTF-8" });
      res.end(req.method === "HEAD" ? undefined : "Ok.\n");
    };
    if (url.pathname === "/ping" || url.pathname === "/replicas_status") return ok();
    if (url.pathname !== "/") {
      req.resume();
      res.writeHead(404, { "Content-Type": "text/plain; charset=UTF-8" });
      res.end(`There is no handle ${url.pathname}\n\nUse / or /ping for health checks.\n`);
      return;
    }
    if (req.method !== "POST" && req.method !== "GET" && req.method !== "HEAD") {
      req.resume();
      res.writeHead(405, { Allow: "GET, POST, HEAD" });
      res.end();
      return;
    }
    if (req.method !== "POST" && !url.searchParams.has("query")) return ok();
    answerQuery(req, res, url).catch((err) => {
      stats.errors++;
      req.resume();
      const message = err instanceof Error ? err.message : String(err);
      const m = /^Code: (\d+)\.[\s\S]*\(([A-Z0-9_]+)\)\s*$/u.exec(message.trim());
      const text = m ? message.trim() : `Code: 1001. DB::Exception: ${message}. (STD_EXCEPTION)`;
      const code = m ? m[1] : "1001";
      const status = STATUS_BY_TYPE.get(m?.[2] ?? "") ?? 500;
      log(`query failed: ${text.slice(0, 200)}`);
      if (res.headersSent) return res.destroy();
      const out = Buffer.from(`${text} (version ${version})\n`);
      res.writeHead(status, { "Content-Type": "text/plain; charset=UTF-8", "X-ClickHouse-Exception-Code": code, "Content-Length": out.length });
      res.end(out);
    });
  });
  server.keepAliveTimeout = 10_000;
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve(undefined));
  });
  const address = server.address();
  const url = `http://${host}:${typeof address === "object" && address ? address.port : port}`;
  return {
    url,
    version,
    stats,
    async close() {
      await new Promise((resolve) => {
        server.close(() => resolve(undefined));
        server.closeAllConnections();
      });
      for (const c of pool) c.session.close();
    },
  };
}

class FrontUsageError extends Error {}

async function main(argv) {
  const opt = (name, fallback) => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 && argv[i + 1] !== undefined ? argv[i + 1] : fallback;
  };
  const dataDir = opt("path", undefined);
  if (dataDir === undefined) throw new FrontUsageError("--path DIR is required (the embedded store's data directory)");
  const front = await startClickHouseFront({
    dataDir,
    host: opt("host", "127.0.0.1"),
    port: Number(opt("port", "0")),
    sessions: Number(opt("sessions", "4")),
    log: argv.includes("--quiet") ? () => {} : (m) => process.stderr.write(`[clickhouse-front] ${m}\n`),
  });
  process.stdout.write(`clickhouse front listening ${front.url} (ClickHouse ${front.version}, ${dataDir})\n`);
  await new Promise((resolve) => {
    process.once("SIGTERM", resolve);
    process.once("SIGINT", resolve);
  });
  await front.close();
  return 0;
}

runIfMain(import.meta.url, main, "clickhouse-front", FrontUsageError);
