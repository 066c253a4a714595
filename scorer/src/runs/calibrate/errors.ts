import { RagmeterError } from "@ragmeter/runtime";

/** A calibration input problem (unknown run, unreadable review file): exit code 2 with this message. */
export class CalibrationError extends RagmeterError {
  override readonly name = "CalibrationError";
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, { code: "input", cause: options?.cause });
  }
}
