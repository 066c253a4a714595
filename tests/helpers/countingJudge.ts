import { type Judge, judgeOf } from "../../core/src/judges/types.js";

/** An LLM-kind judge that counts its calls and answers fixed verdicts (which calls are made, not what they say). */
export function countingJudge(chunkIds: readonly string[] = []): Judge & { readonly calls: { grounding: number; relevance: number } } {
  const calls = { grounding: 0, relevance: 0 };
  const cost = { input_tokens: 1, output_tokens: 1, latency_ms: 0 };
  const judge = judgeOf(
    { kind: "llm", model: "counting", metered: true },
    {
      grounding: {
        version: "g",
        run: async () => {
          calls.grounding++;
          return { status: "ok", value: 1, claims: [{ index: 0, text: "c", verdict: "SUPPORTED", chunk_ids: [...chunkIds] }], reason: "", ...cost };
        },
      },
      relevance: {
        version: "r",
        run: async () => {
          calls.relevance++;
          return { status: "ok", value: 4, reason: "", ...cost };
        },
      },
    },
  );
  return { ...judge, calls };
}
