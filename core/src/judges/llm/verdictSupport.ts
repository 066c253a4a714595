// The support probability of an LLM verdict (issue 40): at the first token of each verdict value of
// a reply, the probability of SUPPORTED among the three verdicts, from the token's most likely
// alternatives (OpenAI-style `logprobs`). A reply's verdict is one word, first in its object: its
// first token carries the model's choice, and a probability ranks claims where the word alone ties.
import type { TokenLogprob } from "./transport.js";

const VERDICTS = ["SUPPORTED", "CONTRADICTED", "UNSUPPORTED"] as const;
const VERDICT_VALUE = /"verdict"\s*:\s*"/gu;

/** The share of SUPPORTED among the verdict words the alternatives `alts` begin (after `skip` characters of their token); null when none does. */
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

/**
 * The support probability of each verdict of `content`, in order: for each `"verdict": "` of the
 * reply, the token where the value starts and its alternatives. Empty when the tokens do not spell
 * the content (then nothing can be placed); null for a verdict whose alternatives name no verdict.
 */
export function verdictSupports(content: string, logprobs: readonly TokenLogprob[]): (number | null)[] {
  const starts: number[] = [];
  let at = 0;
  for (const t of logprobs) {
    starts.push(at);
    at += t.token.length;
  }
  if (logprobs.map((t) => t.token).join("") !== content) return [];
  const out: (number | null)[] = [];
  for (const m of content.matchAll(VERDICT_VALUE)) {
    const offset = (m.index ?? 0) + m[0].length;
    let k = starts.findIndex((s, i) => s <= offset && offset < s + (logprobs[i]?.token.length ?? 0));
    if (k < 0) k = starts.length - 1;
    const tok = logprobs[k] as TokenLogprob;
    const prefix = tok.token.slice(0, offset - (starts[k] as number));
    out.push(supportAt(tok.top_logprobs && tok.top_logprobs.length > 0 ? tok.top_logprobs : [tok], prefix));
  }
  return out;
}
