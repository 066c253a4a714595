import { createHash } from "node:crypto";

export type { JudgeCache } from "../../domain/judgeCache.js";

/**
 * The cache key of design §5: SHA-256 (hex) of the canonical JSON of (judge model, prompt version,
 * judge name, inputs). Any change of model, prompt text or input gives another key.
 */
export function judgeCacheKey(model: string, promptVersion: string, judgeName: string, input: unknown): string {
  return createHash("sha256")
    .update(JSON.stringify([model, promptVersion, judgeName, input]))
    .digest("hex");
}
