import { RagmeterError } from "@ragmeter/runtime";

/** A configuration error: names the variable or flag and what to set (exit code 2). */
export class ConfigError extends RagmeterError {
  override readonly name = "ConfigError";
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, { code: "config", cause: options?.cause });
  }
}
