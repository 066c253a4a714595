// The support probability of an LLM verdict (issue 40): at the first token of each verdict value of
// a reply, the probability of SUPPORTED among the three verdicts, from the token's most likely
// alternatives (OpenAI-style `logprobs`). A reply's verdict is one word, first in its object: its
// first token carries the model's choice, and a probability ranks claims where the word alone ties.
//
// The tokens need not spell the reply's content exactly: llama.cpp's server, for one, lets a model
// under a JSON schema open a Markdown fence ("```json\n" … "\n```") and returns only the JSON inside
// as the content, while the logprobs keep the fence's tokens. So the content is found inside the
// tokens' text, and the tokens are joined as bytes (each token's `bytes` when the endpoint gives
// them), as a token may hold part of a multibyte character.
import type { TokenLogprob } from "./transport.js";

const VERDICTS = ["SUPPORTED", "CONTRADICTED", "UNSUPPORTED"] as const;
const VERDICT_VALUE = /"verdict"\s*:\s*"/gu;

/** The share of SUPPORTED among the verdict words the alternatives `alts` begin (after the `prefix` their token starts with); null when none does. */
function supportAt(alts: readonly { token: string; logprob: number }[], prefix: string): number | null {
  const p = { SUPPORTED: 0, CONTRADICTED: 0, UNSUPPORTED: 0 };
  for (const a of alts) {
    if (!a.token.startsWith(prefix)) continue;
    const rest = a.token.slice(prefix.length);
    if (rest.length === 0) continue;
    for (const v of VERDICTS) if (v.startsWith(rest) || rest.startsWith(v)) p[v] += Math.exp(a.logprob);
  }
  const sum = p.SUPPORTED + p.CONTRADICTED + p.UNSUPPORTED;
  return sum > 0 ? p.SUPPORTED / sum : null;
}

/** A token's bytes: the endpoint's `bytes` when given, else its text in UTF-8. */
const bytesOf = (t: TokenLogprob): Buffer => (t.bytes ? Buffer.from(t.bytes) : Buffer.from(t.token, "utf8"));

/**
 * Where `content` lies in the tokens' bytes: the byte offset of each token's start in `starts` (and
 * the total after the last), and the byte offset at which the content starts; null when the content
 * is not found there exactly once (then no token can be placed with certainty).
 */
function locate(content: string, logprobs: readonly TokenLogprob[]): { starts: number[]; bytes: Buffer[]; base: number } | null {
  const bytes = logprobs.map(bytesOf);
  const starts: number[] = [];
  let at = 0;
  for (const b of bytes) {
    starts.push(at);
    at += b.length;
  }
  starts.push(at);
  const all = Buffer.concat(bytes);
  const wanted = Buffer.from(content, "utf8");
  const base = all.indexOf(wanted);
  if (base < 0 || all.indexOf(wanted, base + 1) >= 0) return null;
  return { starts, bytes, base };
}

/**
 * The support probability of each verdict of `content`, in order: for each `"verdict": "` of the
 * reply, the token where the value starts and its alternatives. Empty when the content is not found
 * exactly once in the tokens' bytes (then nothing can be placed); null for a verdict whose
 * alternatives name no verdict.
 */
export function verdictSupports(content: string, logprobs: readonly TokenLogprob[]): (number | null)[] {
  const where = locate(content, logprobs);
  if (where === null) return [];
  const { starts, bytes, base } = where;
  const out: (number | null)[] = [];
  for (const m of content.matchAll(VERDICT_VALUE)) {
    const offset = base + Buffer.byteLength(content.slice(0, (m.index ?? 0) + m[0].length), "utf8");
    // the token holding the value's first byte (none when the content ends right after the quote)
    const k = starts.findIndex((s, i) => i < logprobs.length && s <= offset && offset < (starts[i + 1] as number));
    if (k < 0) {
      out.push(null);
      continue;
    }
    const tok = logprobs[k] as TokenLogprob;
    const prefix = (bytes[k] as Buffer).subarray(0, offset - (starts[k] as number)).toString("utf8");
    out.push(supportAt(tok.top_logprobs && tok.top_logprobs.length > 0 ? tok.top_logprobs : [tok], prefix));
  }
  return out;
}
