/** The owner's read API answered with an error, or could not be reached. */
export class ReadApiError extends Error {
  override readonly name = "ReadApiError";
  constructor(
    message: string,
    readonly status: number | null,
  ) {
    super(message);
  }
}
