import { RagmeterError } from "@ragmeter/runtime";

/** `golden draft` cannot start: documents that cannot be read, no judge endpoint, nothing captured (exit 2, one line). */
export class DraftError extends RagmeterError {
  override readonly name = "DraftError";
  constructor(message: string, code: "usage" | "config" | "input" = "input") {
    super(message, { code });
  }
}
