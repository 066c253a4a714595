/** Raised for a golden-set file that cannot be used; names file, line (1-based) and field. */
export class GoldenSetError extends Error {
  override readonly name = "GoldenSetError";
  constructor(
    readonly file: string,
    readonly line: number | null,
    readonly field: string | null,
    readonly reason: string,
  ) {
    super(`${file}${line !== null ? `:${line}` : ""}${field ? `: field "${field}"` : ""}: ${reason}`);
  }
}
