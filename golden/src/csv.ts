import { CsvError, parse } from "csv-parse/sync";
import { GoldenSetError } from "./errors.js";

/** One record of a golden-set file before validation: where it starts and its fields. */
export interface RawGoldenRecord {
  /** 1-based physical line where the record starts. */
  readonly line: number;
  /** CSV only: 1-based row number (header = row 1); null for JSONL. */
  readonly row: number | null;
  readonly value: unknown;
}

/** Columns a golden-set CSV header may name (the fields of `goldenItemSchema`). */
export const CSV_COLUMNS = [
  "id",
  "question",
  "expected_source",
  "expected_substring",
  "expected_lines",
  "expected_chunk_id",
  "reference_answer",
  "key_facts",
  "tags",
  "unconfirmed",
] as const;

type Column = (typeof CSV_COLUMNS)[number];
const LIST_COLUMNS: ReadonlySet<Column> = new Set<Column>(["key_facts", "tags"]);

/**
 * Reads golden-set records from CSV text: a header row naming columns of {@link CSV_COLUMNS} (any
 * order, case and surrounding spaces ignored), then one item per row. Cells are trimmed; an empty
 * cell means the field is absent. `key_facts` and `tags` are `;`-separated (`a; b`) or a JSON array
 * of strings (`["a;b", "c"]`); `expected_lines` is `first-last`, `first;last`, a single line or a
 * JSON array. Quoted cells may hold commas, quotes (`""`) and newlines; blank lines and rows whose
 * every cell is empty are skipped; a UTF-8 BOM is ignored.
 *
 * @throws GoldenSetError naming file, line, row and field.
 */
export function readCsvRecords(text: string, file: string): RawGoldenRecord[] {
  const body = text.startsWith("\uFEFF") ? text.slice(1) : text;
  const starts = recordStartLines(body);
  const rows = parseRows(body, file, starts);
  if (rows.length === 0) return [];
  // Blank lines are not records for the parser nor for recordStartLines, so both lists align;
  // should they ever not, the parser's own count is no better, so lines fall back to null.
  const lineOf = (i: number): number | null => (starts.length === rows.length ? (starts[i] ?? null) : null);
  const columns = headerColumns(rows[0] ?? [], file, lineOf(0));
  const out: RawGoldenRecord[] = [];
  for (let i = 1; i < rows.length; i++) {
    const cells = rows[i] ?? [];
    if (cells.every((c) => c.trim() === "")) continue;
    const line = lineOf(i) ?? i + 1;
    const row = i + 1;
    out.push({ line, row, value: rowValue(columns, cells, file, line, row) });
  }
  return out;
}

/** The CSV's rows of cells; a parse error names the line where its record starts (`starts`). */
function parseRows(body: string, file: string, starts: readonly number[]): string[][] {
  try {
    return parse(body, { skip_empty_lines: true, relax_column_count_less: true, record_delimiter: ["\r\n", "\n"] });
  } catch (err) {
    if (!(err instanceof CsvError)) throw err;
    const failed = (err as CsvError & { records?: number }).records;
    const index = typeof failed === "number" ? failed : null;
    const line = (index !== null ? starts[index] : undefined) ?? (err as CsvError & { lines?: number }).lines ?? null;
    throw new GoldenSetError(file, line, null, `not valid CSV (${err.message.replace(/,? (?:at|on) line \d+/u, "")})`, index !== null ? index + 1 : null);
  }
}

/** The header row's columns: each known, none twice, `question` among them. */
function headerColumns(cells: readonly string[], file: string, line: number | null): Column[] {
  const header = cells.map((h) => h.trim().toLowerCase());
  const known = new Set<string>(CSV_COLUMNS);
  const unknown = header.filter((h) => !known.has(h));
  if (unknown.length > 0) {
    throw new GoldenSetError(file, line, null, `unknown column(s) ${unknown.map((u) => JSON.stringify(u)).join(", ")} in the header row (columns: ${CSV_COLUMNS.join(", ")})`, 1);
  }
  const dup = header.find((h, i) => header.indexOf(h) !== i);
  if (dup !== undefined) throw new GoldenSetError(file, line, dup, "column named twice in the header row", 1);
  if (!header.includes("question")) throw new GoldenSetError(file, line, "question", "missing column in the header row", 1);
  return header as Column[];
}

/** One row's fields by column; empty cells are absent. */
function rowValue(columns: readonly Column[], cells: readonly string[], file: string, line: number, row: number): Record<string, unknown> {
  const value: Record<string, unknown> = {};
  columns.forEach((col, c) => {
    const cell = (cells[c] ?? "").trim();
    if (cell === "") return;
    try {
      value[col] = cellValue(col, cell);
    } catch (err) {
      throw new GoldenSetError(file, line, col, (err as Error).message, row);
    }
  });
  return value;
}

/** A cell read by its column's kind: list, line range, boolean or text. */
function cellValue(col: Column, cell: string): unknown {
  if (LIST_COLUMNS.has(col)) return listCell(cell);
  if (col === "expected_lines") return rangeCell(cell);
  if (col === "unconfirmed") return booleanCell(cell);
  return cell;
}

/** A `;`-separated list or a JSON array of strings. */
function listCell(cell: string): string[] {
  if (cell.startsWith("[")) {
    let json: unknown;
    try {
      json = JSON.parse(cell);
    } catch (err) {
      throw new Error(`starts with "[" but is not a JSON array (${(err as Error).message}); write a;b or ["a","b"]`);
    }
    if (!Array.isArray(json) || !json.every((x) => typeof x === "string")) throw new Error("must be a JSON array of strings, or a;b");
    return json as string[];
  }
  return cell
    .split(";")
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/** `true`/`false` (any case; also yes/no, 1/0). */
function booleanCell(cell: string): boolean {
  const v = cell.toLowerCase();
  if (v === "true" || v === "yes" || v === "1") return true;
  if (v === "false" || v === "no" || v === "0") return false;
  throw new Error("must be true or false");
}

/** `first-last`, `first;last`, `line` or a JSON array; the schema checks the numbers. */
function rangeCell(cell: string): unknown {
  if (cell.startsWith("[")) {
    try {
      return JSON.parse(cell) as unknown;
    } catch {
      throw new Error("must be first-last, first;last or [first, last]");
    }
  }
  const m = /^(\d+)(?:\s*[-;]\s*(\d+))?$/u.exec(cell);
  if (!m) throw new Error("must be first-last, first;last or [first, last]");
  const first = Number(m[1]);
  return [first, m[2] !== undefined ? Number(m[2]) : first];
}

/**
 * 1-based start line of each non-blank CSV record (`"` quoting with `""` escapes, records ended by
 * LF or CRLF outside quotes), for error messages: the parser's own line count is off after a quoted
 * CRLF. Valid CSV opens and closes quotes only at field edges, so counting quotes tells whether a
 * newline is inside a field; invalid quoting is refused by the parser anyway.
 */
function recordStartLines(text: string): number[] {
  const starts: number[] = [];
  let line = 1;
  let inQuote = false;
  let recordStart = 0;
  let startLine = 1;
  for (let i = 0; i <= text.length; i++) {
    const ch = i < text.length ? text[i] : "\n";
    if (ch === '"') inQuote = !inQuote;
    else if (ch === "\n" && (!inQuote || i === text.length)) {
      const record = text.slice(recordStart, i).replace(/\r$/u, "");
      if (record.length > 0) starts.push(startLine);
      line++;
      recordStart = i + 1;
      startLine = line;
    } else if (ch === "\n") line++;
  }
  return starts;
}
