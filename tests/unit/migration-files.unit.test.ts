import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { loadMigrations, MIGRATIONS_DIR, MigrationFileError } from "../../store/src/migrationFiles.js";
import { migrationStatements } from "../../store/src/migrations.js";

// The schema migrations as numbered .sql files (store/migrations, issue 36): the files read as the
// TypeScript migrations they replaced, their hashes are pinned, and the loader refuses a malformed folder.

const dir = fileURLToPath(MIGRATIONS_DIR);

/** The ids and names recorded in schema_migrations by the code before the files (copied from it by hand). */
const NAMES = [
  "runs, golden sets, interactions, scores, claims, judge cache, comparisons",
  "spans, logs, ingestion stats, calibrations",
  "ingestion stats: judge calls skipped by reason",
  "golden_items.expected_chunk_id (match by exact chunk id)",
  "retention: forgotten_traces tombstones, content column defaults, ingestion_stats.spans_dropped_forgotten",
  "ingestion_stats.judge_skipped_uncertain_reading (traces read from a fallback)",
  "live_traces: one narrow row per scoring of a live trace, in time order (the live view reads a window of it)",
  "chunks: retrieved chunks' text stored once, by hash; interactions.chunk_hashes",
  "ingestion_stats: judge budget, judge failures by kind, the judge's own traces, spans with dropped attributes by service",
  "live_scores: one row per live metric of a scoring of a live trace (the live view reads metrics by name); live_traces keeps the trace-level facts",
  "ingestion_stats: judge calls and tokens spent on live traces, by service (the judge budget of the whole scorer group)",
  "live_minutes, live_minutes_state: the live view's aggregates per minute (marked by saveResults, computed by the scorers)",
  // written as files
  "spans.chunk_hashes: spans keep references to the chunks' texts stored in chunks",
  "ZSTD(3) on the captured text columns (spans, logs, chunks, interactions, claims)",
  "ZSTD(1) on the id, hash, time and number columns (spans, interactions, claims, scores, live_traces, live_scores, chunks)",
  "claims.claim_start, .claim_length, .answer_digest: a claim cut from its answer is stored as a slice of it",
  "ZSTD(9) on the largest text columns (spans.attributes, chunks.text, interactions.answer)",
];

interface Before {
  database: string;
  plain: string[];
  migrations: { id: number; name: string; sql: string[]; data: string[] }[];
}

describe("store/migrations: the shipped files", () => {
  it("have the ids and names stores already record, so no applied migration runs again", () => {
    expect(loadMigrations().map((m) => [m.id, m.name])).toEqual(NAMES.map((n, i) => [i + 1, n]));
  });

  it("render the statements the TypeScript migrations rendered, byte for byte (fixture generated once from the code at d93a5c4)", () => {
    const before = JSON.parse(readFileSync(path.resolve(import.meta.dirname, "../fixtures/migrations-before-files.json"), "utf8")) as Before;
    const db = before.database;
    // the migrations written since as files come after them
    expect(
      loadMigrations()
        .slice(0, before.migrations.length)
        .map((m) => ({ id: m.id, name: m.name, sql: m.sql(db), data: m.data(db) })),
    ).toEqual(before.migrations);
    expect(migrationStatements(db, null).slice(0, before.plain.length)).toEqual(before.plain);
    // the data statements: migrations 7, 10 (two) and 12; the rest schema only
    expect(before.migrations.map((m) => m.data.length)).toEqual([0, 0, 0, 0, 0, 0, 1, 0, 0, 2, 0, 1]);
    expect(before.plain).toHaveLength(52);
  });

  it("migration 10's backfill names the live metrics of the table when it was written, frozen in its file", () => {
    const [scores, view] = loadMigrations()[9]?.data("d") ?? [];
    expect(scores).toContain("metric IN ('grounding', 'grounding_risk', 'relevance', 'context_relevance')");
    expect(view).toContain("indexOf(['grounding', 'grounding_risk', 'relevance', 'context_relevance'], metric)");
  });

  it("are pinned by SHA256SUMS: an applied file is never edited, a new one adds its line", () => {
    const sums = readFileSync(path.join(dir, "SHA256SUMS"), "utf8")
      .trimEnd()
      .split("\n")
      .map((l) => /^([0-9a-f]{64}) {2}(\S+)$/u.exec(l)?.slice(1) ?? [l, ""]);
    const files = readdirSync(dir)
      .filter((f) => f.endsWith(".sql"))
      .sort();
    expect(sums.map(([, f]) => f)).toEqual(files);
    for (const [hash, file] of sums)
      expect(
        createHash("sha256")
          .update(readFileSync(path.join(dir, file ?? "")))
          .digest("hex"),
        `${file} changed: write a new migration instead`,
      ).toBe(hash);
  });
});

describe("loadMigrations on a malformed folder: one error naming the file", () => {
  const folders: string[] = [];
  afterEach(() => {
    for (const f of folders.splice(0)) rmSync(f, { recursive: true, force: true });
  });
  const folder = (files: Record<string, string>): string => {
    const d = mkdtempSync(path.join(tmpdir(), "ragmeter-migfiles-"));
    folders.push(d);
    for (const [name, text] of Object.entries(files)) writeFileSync(path.join(d, name), text);
    return d;
  };
  const ok = (name: string) => `-- name: ${name}\n\nCREATE TABLE IF NOT EXISTS {db}.${name} (\n  k String\n) ENGINE = ReplacingMergeTree ORDER BY k;\n`;
  const error = (d: string): MigrationFileError => {
    try {
      loadMigrations(d);
    } catch (e) {
      expect(e).toBeInstanceOf(MigrationFileError);
      return e as MigrationFileError;
    }
    throw new Error("no error");
  };

  it("reads a well-formed folder: comments skipped, schema before -- data, {db} replaced, other files ignored", () => {
    const d = folder({
      "001_a.sql": ok("a"),
      "002_b.sql":
        "-- name: b, with data\n-- a comment\nALTER TABLE {db}.a ADD COLUMN IF NOT EXISTS x String DEFAULT '{}';\n\n-- data\n-- fill it\nINSERT INTO {db}.a (k)\n  SELECT k FROM {db}.a;\n",
      "README.md": "not a migration",
      SHA256SUMS: "",
    });
    const [a, b] = loadMigrations(d);
    expect([a?.id, a?.name, a?.file, b?.id, b?.name]).toEqual([1, "a", "001_a.sql", 2, "b, with data"]);
    expect(a?.sql("x")).toEqual(["CREATE TABLE IF NOT EXISTS x.a (\n  k String\n) ENGINE = ReplacingMergeTree ORDER BY k"]);
    expect(a?.data("x")).toEqual([]);
    expect(b?.sql("y")).toEqual(["ALTER TABLE y.a ADD COLUMN IF NOT EXISTS x String DEFAULT '{}'"]);
    expect(b?.data("y")).toEqual(["INSERT INTO y.a (k)\n  SELECT k FROM y.a"]);
    expect(migrationStatements("z", "c", loadMigrations(d))).toEqual([
      "CREATE DATABASE IF NOT EXISTS z ON CLUSTER c",
      "CREATE TABLE IF NOT EXISTS z.schema_migrations ON CLUSTER c (id UInt32, name String, applied_at DateTime64(3, 'UTC')) ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/z/schema_migrations', '{replica}') ORDER BY id",
      "CREATE TABLE IF NOT EXISTS z.a_local ON CLUSTER c (\n  k String\n) ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/{shard}/z/a', '{replica}') ORDER BY k",
      "CREATE TABLE IF NOT EXISTS z.a ON CLUSTER c AS z.a_local ENGINE = Distributed(c, z, a_local, cityHash64(k))",
      "ALTER TABLE z.a_local ON CLUSTER c ADD COLUMN IF NOT EXISTS x String DEFAULT '{}'",
      "ALTER TABLE z.a ON CLUSTER c ADD COLUMN IF NOT EXISTS x String DEFAULT '{}'",
    ]);
  });

  it("a gap in the numbering", () => {
    expect(error(folder({ "001_a.sql": ok("a"), "003_c.sql": ok("c") })).message).toBe("003_c.sql: migration 2 is missing (numbers run from 1 without gaps)");
    expect(error(folder({ "002_b.sql": ok("b") })).message).toBe("002_b.sql: migration 1 is missing (numbers run from 1 without gaps)");
  });

  it("two files of one number", () => {
    expect(error(folder({ "001_a.sql": ok("a"), "001_b.sql": ok("b") })).message).toBe("001_b.sql: migration 1 has two files (001_a.sql and 001_b.sql)");
  });

  it("a statement without the {db} placeholder, or with another placeholder", () => {
    const e = error(folder({ "001_a.sql": ok("a"), "002_b.sql": "-- name: b\n\nALTER TABLE ragmeter.a ADD COLUMN x String;\n" }));
    expect(e.message).toBe("002_b.sql:3: the statement names no table of the database as {db}.<table>");
    expect(e.code).toBe("internal");
    expect(error(folder({ "001_a.sql": "-- name: a\nALTER TABLE {db}.a ADD COLUMN x String DEFAULT {x:String};\n" })).message).toBe(
      "001_a.sql:2: {x:String} is no placeholder of the migrations (only {db})",
    );
    expect(error(folder({ "001_a.sql": "-- name: a\nCREATE TABLE {db}.a (k String) ENGINE = ReplicatedMergeTree('/t/{shard}', '{replica}') ORDER BY k;\n" })).message).toBe(
      "001_a.sql:2: {shard} is no placeholder of the migrations (only {db})",
    );
  });

  it("no name line, no statement, a statement not ended, a ';' inside one, a second data marker, a bad file name", () => {
    expect(error(folder({ "001_a.sql": "CREATE TABLE {db}.a (k String) ENGINE = Memory;\n" })).message).toBe(
      '001_a.sql: its first line must be "-- name: <the migration\'s name>"',
    );
    expect(error(folder({ "001_a.sql": "-- name: a\n-- nothing\n" })).message).toBe("001_a.sql: no statement");
    expect(error(folder({ "001_a.sql": "-- name: a\nALTER TABLE {db}.a ADD COLUMN x String\n" })).message).toBe('001_a.sql: the last statement has no ";" at the end of a line');
    expect(error(folder({ "001_a.sql": "-- name: a\nALTER TABLE {db}.a ADD COLUMN x String DEFAULT ';'\n  ;\n" })).message).toMatch(/^001_a\.sql:3: a ";" inside a statement/u);
    expect(error(folder({ "001_a.sql": `${ok("a")}-- data\n-- data\n` })).message).toBe('001_a.sql:7: a second "-- data" marker');
    expect(error(folder({ "001_A.sql": ok("a") })).message).toMatch(/^001_A\.sql: a migration file is named NNN_short_name\.sql/u);
  });

  it("a missing or empty folder: an environment error naming it", () => {
    const gone = path.join(tmpdir(), "ragmeter-migfiles-none", "migrations");
    const e = error(gone);
    expect(e.message).toBe(`the schema migrations folder ${gone} is missing (an incomplete installation: it ships beside the code)`);
    expect(e.code).toBe("environment");
    const empty = folder({ "README.md": "x" });
    expect(error(empty).message).toBe(`${empty}: no migration file (NNN_short_name.sql)`);
    expect(error(empty).code).toBe("environment");
  });
});
