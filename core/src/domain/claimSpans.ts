import { createHash } from "node:crypto";

/**
 * Claims stored as spans of their answer (design §6, `claims.claim_start`, `.claim_length`,
 * `.answer_digest`, migration 16): a claim whose text is exactly a slice of its interaction's answer
 * is stored as that slice's UTF-8 byte offset and length, with a blank `claim` and the answer's digest; any
 * other claim keeps its text (length 0). Readers put the text back from the answer stored for the
 * trace, only when that answer's digest is the one the claim was cut from: a claim whose answer was
 * replaced since (the trace scored again with another answer) or blanked (`forget`, retention) reads
 * as its `claim` column, blank.
 */
export interface ClaimSpan {
  /** The text to store: '' when the offsets give it. */
  readonly claim: string;
  /** UTF-8 byte offset of the claim's first byte in the answer (0 when the text is stored). */
  readonly claim_start: number;
  /** The claim's length in UTF-8 bytes (0 when the text is stored). */
  readonly claim_length: number;
  /** {@link answerDigest} of the answer the offsets point into (0 when the text is stored). */
  readonly answer_digest: number;
}

/**
 * The first four bytes of the answer's MD5 as a little-endian unsigned integer: what ClickHouse's
 * `reinterpretAsUInt32(MD5(answer))` gives, so SQL readers can check it too.
 */
export function answerDigest(answer: string): number {
  return createHash("md5").update(answer, "utf8").digest().readUInt32LE(0);
}

/** A UTF-16 code unit of a surrogate pair standing alone (`u`: a whole pair is one code point, not Cs). */
const LONE_SURROGATE = /\p{Cs}/u;

/**
 * How to store `claim` of an interaction whose stored answer is `answer` (null: none, or not known
 * to this writer): its offsets when it is a non-blank slice of the answer, else its text. `digest`:
 * the answer's {@link answerDigest} when the caller has it (a writer storing several claims of one
 * answer computes it once).
 */
export function claimSpan(claim: string, answer: string | null, digest?: number): ClaimSpan {
  // Lone surrogates have no UTF-8 bytes of their own (the store would not hold what the offsets count).
  const at = answer === null || claim === "" || LONE_SURROGATE.test(answer) || LONE_SURROGATE.test(claim) ? -1 : answer.indexOf(claim);
  if (answer === null || at < 0) return { claim, claim_start: 0, claim_length: 0, answer_digest: 0 };
  const start = Buffer.byteLength(answer.slice(0, at), "utf8");
  return { claim: "", claim_start: start, claim_length: Buffer.byteLength(claim, "utf8"), answer_digest: digest ?? answerDigest(answer) };
}

/**
 * SQL giving a stored claim's text: the slice of the answer its offsets give when it was cut from
 * that answer (same digest), else its `claim` column. `c` is the alias of `claims`, `answer` the
 * expression of the trace's stored answer (`Nullable(String)`; NULL or '' when it has none).
 */
export function claimTextSql(c: string, answer: string): string {
  const a = `ifNull(${answer}, '')`;
  return `if(${c}.claim_length > 0 AND reinterpretAsUInt32(MD5(${a})) = ${c}.answer_digest, substring(${a}, ${c}.claim_start + 1, ${c}.claim_length), ${c}.claim)`;
}
