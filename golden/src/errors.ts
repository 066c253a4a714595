import { RagmeterError } from "@ragmeter/runtime";

/**
 * Raised for a golden-set file that cannot be used; names file, line (1-based) and field. For a CSV
 * file, `line` is the physical line where the row starts and `row` the row number (the header is
 * row 1, blank lines are not rows), as a spreadsheet shows it.
 */
export class GoldenSetError extends RagmeterError {
  override readonly name = "GoldenSetError";
  constructor(
    readonly file: string,
    readonly line: number | null,
    readonly field: string | null,
    readonly reason: string,
    readonly row: number | null = null,
  ) {
    super(`${file}${line !== null ? `:${line}` : ""}${row !== null ? ` (row ${row})` : ""}${field ? `: field "${field}"` : ""}: ${reason}`, { code: "input" });
  }
}
