import { RagmeterError } from "@ragmeter/runtime";

/**
 * The owner's read API answered with an error, or could not be reached (`status` null): retriable
 * when unreachable, 429 or 5xx.
 */
export class ReadApiError extends RagmeterError {
  override readonly name = "ReadApiError";
  constructor(
    message: string,
    readonly status: number | null,
  ) {
    super(message, { code: "unavailable", retriable: status === null || status === 429 || status >= 500 });
  }
}
