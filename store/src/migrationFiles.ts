import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { StoreError } from "./errors.js";

/**
 * The schema migrations as files (design §6, store/migrations/README.md): `NNN_short_name.sql`, one
 * per migration, numbered from 001 without gaps; a first line `-- name: …` (the name recorded in
 * `schema_migrations`); statements each ended by `;` at the end of a line, `{db}` standing for the
 * database; blank and `--` lines between statements; a line `-- data` before the data statements,
 * which run once after the schema statements, as they are (also on a cluster).
 */

/** One migration read from its file. */
export interface Migration {
  readonly id: number;
  readonly name: string;
  /** The file's name, for messages. */
  readonly file: string;
  /** Schema statements for database `db` (each has a clustered form, clusteredStatements). */
  readonly sql: (db: string) => string[];
  /** Data statements for database `db`, run once after `sql`. */
  readonly data: (db: string) => string[];
}

/** The placeholder of the database name in the files: no ClickHouse query parameter (`{name:Type}` always has a type). */
const DB_PLACEHOLDER = "{db}";

/** The folder of the shipped files: store/migrations beside store/src and store/dist, and beside the CLI bundle's dist/ in the package. */
export const MIGRATIONS_DIR = new URL("../migrations/", import.meta.url);

/** A migration file that is missing or not as {@link loadMigrations} reads them. */
export class MigrationFileError extends StoreError {
  override readonly name = "MigrationFileError";
  constructor(message: string, missing = false) {
    super(message, false, { code: missing ? "environment" : "internal" });
  }
}

const FILE = /^(\d{3})_[a-z0-9_]+\.sql$/u;
const NAME = /^-- name: (\S.*)$/u;
/** `{word}` or `{word:Type}`: a placeholder other than {@link DB_PLACEHOLDER} is a mistake (a macro or query parameter). */
const BRACED = /\{\w+(?::[^}]*)?\}/gu;

/** `sql`, a statement ending at `at` (file:line), when it has no inner `;`, names `{db}.` and no other placeholder. */
function checked(sql: string, at: string): string {
  if (sql.includes(";")) throw new MigrationFileError(`${at}: a ";" inside a statement (end each statement with ";" at the end of its last line, and use no other)`);
  if (!sql.includes(`${DB_PLACEHOLDER}.`)) throw new MigrationFileError(`${at}: the statement names no table of the database as ${DB_PLACEHOLDER}.<table>`);
  const other = (sql.match(BRACED) ?? []).filter((p) => p !== DB_PLACEHOLDER);
  if (other.length > 0) throw new MigrationFileError(`${at}: ${other[0]} is no placeholder of the migrations (only ${DB_PLACEHOLDER})`);
  return sql;
}

/** The pieces of a file's lines after the first: statements (without their `;`), `-- data` markers, an unended statement; `line` 1-based. */
function* pieces(lines: readonly string[]): Generator<{ kind: "statement" | "data" | "unended"; sql: string; line: number }> {
  let current: string[] = [];
  for (const [i, line] of lines.entries()) {
    if (current.length === 0 && (line.trim() === "" || line.startsWith("--"))) {
      if (line.trim() === "-- data") yield { kind: "data", sql: "", line: i + 1 };
      continue;
    }
    current.push(line);
    if (line.trimEnd().endsWith(";")) {
      yield { kind: "statement", sql: current.join("\n").trimEnd().slice(0, -1).trimEnd(), line: i + 1 };
      current = [];
    }
  }
  if (current.length > 0) yield { kind: "unended", sql: "", line: lines.length };
}

/** The statements of one file: the schema ones, then those after `-- data`. */
function parse(text: string, file: string): { name: string; schema: string[]; data: string[] } {
  const lines = text.replaceAll("\r\n", "\n").split("\n");
  const name = NAME.exec(lines[0] ?? "")?.[1]?.trim();
  if (name === undefined) throw new MigrationFileError(`${file}: its first line must be "-- name: <the migration's name>"`);
  const schema: string[] = [];
  const data: string[] = [];
  let into = schema;
  for (const p of pieces(lines.map((l, i) => (i === 0 ? "" : l)))) {
    if (p.kind === "unended") throw new MigrationFileError(`${file}: the last statement has no ";" at the end of a line`);
    if (p.kind === "data" && into === data) throw new MigrationFileError(`${file}:${p.line}: a second "-- data" marker`);
    if (p.kind === "data") into = data;
    else into.push(checked(p.sql, `${file}:${p.line}`));
  }
  if (schema.length + data.length === 0) throw new MigrationFileError(`${file}: no statement`);
  return { name, schema, data };
}

/** `template` for database `db`. */
const render = (templates: readonly string[], db: string): string[] => templates.map((t) => t.replaceAll(DB_PLACEHOLDER, db));

/**
 * The migrations in `dir` (default {@link MIGRATIONS_DIR}), in order, checked: every `.sql` file named
 * `NNN_short_name.sql`, numbers consecutive from 1 without duplicates, a name line, at least one
 * statement, each statement naming `{db}.` and no other placeholder. Other files (the README, the
 * hash manifest) are ignored.
 * @throws MigrationFileError naming the file (or the folder, when it is missing)
 */
export function loadMigrations(dir: URL | string = MIGRATIONS_DIR): Migration[] {
  const folder = typeof dir === "string" ? dir : fileURLToPath(dir);
  if (!existsSync(folder)) throw new MigrationFileError(`the schema migrations folder ${folder} is missing (an incomplete installation: it ships beside the code)`, true);
  const files = readdirSync(folder)
    .filter((f) => f.endsWith(".sql"))
    .sort();
  const out: Migration[] = [];
  for (const file of files) {
    const m = FILE.exec(file);
    if (m?.[1] === undefined) throw new MigrationFileError(`${file}: a migration file is named NNN_short_name.sql (three digits, lower case, digits and _)`);
    const id = Number(m[1]);
    const expected = out.length + 1;
    if (id !== expected)
      throw new MigrationFileError(
        id < expected ? `${file}: migration ${id} has two files (${out[id - 1]?.file} and ${file})` : `${file}: migration ${expected} is missing (numbers run from 1 without gaps)`,
      );
    const { name, schema, data } = parse(readFileSync(join(folder, file), "utf8"), file);
    out.push({ id, name, file, sql: (db) => render(schema, db), data: (db) => render(data, db) });
  }
  if (out.length === 0) throw new MigrationFileError(`${folder}: no migration file (NNN_short_name.sql)`, true);
  return out;
}
