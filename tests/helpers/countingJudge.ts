import type { Judge } from "../../scorer/src/judges/types.js";

/** An LLM-kind judge that counts its calls and answers fixed verdicts (which calls are made, not what they say). */
export function countingJudge(chunkIds: readonly string[] = []): Judge & { readonly calls: { grounding: number; relevance: number } } {
  const calls = { grounding: 0, relevance: 0 };
  const cost = { input_tokens: 1, output_tokens: 1, latency_ms: 0 };
  return {
    kind: "llm",
    model: "counting",
    metered: true,
    promptVersion: { grounding: "g", relevance: "r" },
    calls,
    async grounding() {
      calls.grounding++;
      return { status: "ok", value: 1, claims: [{ index: 0, text: "c", verdict: "SUPPORTED", chunk_ids: [...chunkIds] }], reason: "", ...cost };
    },
    async relevance() {
      calls.relevance++;
      return { status: "ok", value: 4, reason: "", ...cost };
    },
  };
}
