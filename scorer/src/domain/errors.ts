/** A configuration error: names the variable or flag and what to set (exit code 2). */
export class ConfigError extends Error {
  override readonly name = "ConfigError";
}
