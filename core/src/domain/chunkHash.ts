import { createHash } from "node:crypto";

/**
 * The content address of a chunk's text (design §6, `chunks`): SHA-256 of its UTF-8 bytes, the
 * first 32 hex digits (128 bits); '' for a blank text. The store keys `chunks` by it and the
 * heuristic judge its per-chunk token cache.
 */
export function chunkHash(text: string): string {
  return text === "" ? "" : createHash("sha256").update(text).digest("hex").slice(0, 32);
}
