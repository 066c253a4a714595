import { describe, expect, it } from "vitest";
import { expectedClaims, outputBounds, TOKENIZER_MARGIN } from "../../core/src/judges/llm/bounds.js";
import { badRequestKind, contextSizeOf } from "../../core/src/judges/llm/callError.js";
import { isPlaceholder, verdictProblem } from "../../core/src/judges/llm/checks.js";

describe("a 400's body, classified (issue 13)", () => {
  it("llama.cpp, OpenAI and vLLM context-size errors; response_format; max_tokens; anything else", () => {
    const llama = {
      code: 400,
      message: "request (10681 tokens) exceeds the available context size (8192 tokens), try increasing it",
      type: "exceed_context_size_error",
      n_prompt_tokens: 10681,
      n_ctx: 8192,
    };
    expect(badRequestKind(`400 ${llama.message}`, llama)).toBe("context");
    expect(contextSizeOf(`400 ${llama.message}`, llama)).toEqual({ nCtx: 8192, promptTokens: 10681 });
    // the same numbers read from the message alone (no n_ctx field)
    expect(contextSizeOf(`400 ${llama.message}`, { message: llama.message })).toEqual({ nCtx: 8192, promptTokens: 10681 });
    expect(badRequestKind("400 Your input is too long", { code: "context_length_exceeded", type: "invalid_request_error" })).toBe("context");
    const vllm = "This model's maximum context length is 2048 tokens. However, you requested 3000 tokens (2900 in the messages, 100 in the completion).";
    expect(badRequestKind(`400 ${vllm}`, { message: vllm, type: "BadRequestError" })).toBe("context");
    expect(contextSizeOf(vllm, undefined)).toEqual({ nCtx: 2048, promptTokens: 3000 });
    expect(badRequestKind("400 Invalid parameter: 'response_format' of type 'json_schema' is not supported with this model.", { param: "response_format" })).toBe(
      "response_format",
    );
    expect(badRequestKind("400 Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.", { param: "max_tokens" })).toBe(
      "max_tokens",
    );
    expect(badRequestKind("400 temperature must be between 0 and 2", { param: "temperature" })).toBe("other");
    expect(badRequestKind("400 status code (no body)", undefined)).toBe("other");
  });
});

describe("output bounds", () => {
  it("expected claims = sentences (Latin and CJK punctuation), at least 1", () => {
    expect(expectedClaims("One. Two! Three?")).toBe(3);
    expect(expectedClaims("备份保留14天。每个备份收费3元。")).toBe(2);
    expect(expectedClaims("")).toBe(1);
  });
  it("claim verdicts: sized from the claims sent and the passage ids a verdict may cite, plus the margin; capped (issue 40)", () => {
    // 24 + 1 × (20 + 1 × ("c1": 2 tokens + 4)) = 50 → ceil(50 × 1.2)
    expect(outputBounds(2048).verdicts(1, ["c1"])).toBe(60);
    // 24 + 8 × (20 + 2 × ("13293#p1": 5 tokens + 4)) = 328 → ceil(393.6)
    expect(outputBounds(2048).verdicts(8, ["13293#p1", "13293#p2", "13293#p3"])).toBe(394);
    // no passage to cite: 24 + 3 × 20 = 84 → ceil(100.8)
    expect(outputBounds(2048).verdicts(3, [])).toBe(101);
    expect(outputBounds(100).verdicts(8, ["c1"])).toBe(100);
  });
  it("relevance: 128 tokens plus the margin; capped; the one retry doubles up to the cap", () => {
    expect(outputBounds(2048).relevance()).toBe(Math.ceil(128 * (1 + TOKENIZER_MARGIN)));
    expect(outputBounds(100).relevance()).toBe(100);
    expect(outputBounds(2048).retry(154)).toBe(308);
    expect(outputBounds(200).retry(154)).toBe(200);
    expect(outputBounds(200).retry(200)).toBeNull();
  });
});

describe("placeholder replies", () => {
  it('"...", "…", "" and "<claim>" are placeholders; real claims are not', () => {
    for (const p of ["...", "…", "", "  ", "<claim>", "---"]) expect(isPlaceholder(p)).toBe(true);
    for (const c of ["Port 5432.", "PostgreSQL слушает порт 5432.", "备份保留14天。", "fact"]) expect(isPlaceholder(c)).toBe(false);
  });
  it("the first placeholder or unknown chunk id is the problem", () => {
    const ids = new Set(["c1", "c2"]);
    expect(verdictProblem([{ claim: "Port 5432.", chunk_ids: ["c1"] }], ids)).toBeNull();
    expect(
      verdictProblem(
        [
          { claim: "Port 5432.", chunk_ids: ["c1"] },
          { claim: "...", chunk_ids: ["..."] },
        ],
        ids,
      ),
    ).toBe('placeholder claim 2: "..."');
    expect(verdictProblem([{ claim: "Port 5432.", chunk_ids: ["c3"] }], ids)).toBe('claim 1 cites chunk "c3", not among the passages');
  });
});
