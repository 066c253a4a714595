import { describe, expect, it } from "vitest";
import { verdictSupports } from "../../core/src/judges/llm/verdictSupport.js";

// Issue 40: the probability of SUPPORTED at the first token of each verdict, from the reply's
// logprobs (the token layout is Qwen2.5's as llama.cpp's server returned it for a verdict reply).
const t = (token: string, alts: [string, number][] = [[token, 1]]) => ({
  token,
  logprob: Math.log(alts.find(([a]) => a === token)?.[1] ?? 1),
  top_logprobs: alts.map(([a, p]) => ({ token: a, logprob: Math.log(p) })),
});

describe("verdictSupports", () => {
  it("SUPPORTED's share among the verdict words the alternatives begin; other tokens ignored", () => {
    const tokens = [
      t('{"'),
      t("ver"),
      t("dict"),
      t('":"'),
      // 0.5 "S…" (SUPPORTED), 0.2 "UN" (UNSUPPORTED), 0.05 "CON" (CONTRADICTED), 0.25 not a verdict
      t("S", [
        ["S", 0.5],
        ["correct", 0.25],
        ["UN", 0.2],
        ["CON", 0.05],
      ]),
      t("UPPORT"),
      t("ED"),
      t('","'),
      t("chunk"),
      t('_ids":["'),
      t("c1"),
      t('"]}'),
    ];
    const content = tokens.map((x) => x.token).join("");
    expect(content).toBe('{"verdict":"SUPPORTED","chunk_ids":["c1"]}');
    // 0.5 / (0.5 + 0.2 + 0.05)
    expect(verdictSupports(content, tokens)[0]).toBeCloseTo(0.5 / 0.75, 12);
  });

  it("a token that holds the opening quote and the verdict's start; two verdicts in order; a verdict whose alternatives name none → null", () => {
    const tokens = [
      t('{"verdicts": [{"verdict": '),
      t('"UN', [
        ['"UN', 0.6],
        ['"SUP', 0.3],
        ['"C', 0.1],
      ]),
      t('SUPPORTED", "chunk_ids": []}, {"verdict": '),
      t('"CON', [
        ['"CON', 0.9],
        ["{", 0.1],
      ]),
      t('TRADICTED", "chunk_ids": []}]}'),
    ];
    const content = tokens.map((x) => x.token).join("");
    const s = verdictSupports(content, tokens);
    expect(s).toHaveLength(2);
    expect(s[0]).toBeCloseTo(0.3, 12); // 0.3 / (0.6 + 0.3 + 0.1)
    expect(s[1]).toBe(0); // only CONTRADICTED among the verdict words
    const none = [t('{"verdict": "'), t("X", [["X", 1]]), t('"}')];
    expect(verdictSupports('{"verdict": "X"}', none)).toEqual([null]);
  });

  it("tokens that do not spell the content place nothing", () => {
    expect(verdictSupports('{"verdict": "SUPPORTED"}', [t('{"verdict": "'), t("SUPPORTED")])).toEqual([]);
  });
});
