import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { TokenLogprob } from "../../core/src/judges/llm/transport.js";
import { verdictSupports } from "../../core/src/judges/llm/verdictSupport.js";

/** A real reply of llama.cpp's server (Qwen2.5-Coder-1.5B, RAGTruth answer 12601): the model opened a ```json fence the content leaves out. */
const FENCED = JSON.parse(readFileSync(path.resolve(import.meta.dirname, "../fixtures/llm/fenced-verdicts-reply.json"), "utf8")) as {
  content: string;
  logprobs: TokenLogprob[];
};

/** Σ exp(logprob) over the given log-probabilities. */
const mass = (...logprobs: number[]): number => logprobs.reduce((a, l) => a + Math.exp(l), 0);

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

  it("a reply whose tokens open a ```json fence the content leaves out (llama.cpp's server): the content is found in the tokens", () => {
    const joined = FENCED.logprobs.map((x) => x.token).join("");
    expect(joined).toBe(`\`\`\`json\n${FENCED.content}\n\`\`\``);
    const s = verdictSupports(FENCED.content, FENCED.logprobs);
    // Each verdict's first token is "S"; its alternatives by hand: "S" is SUPPORTED, "UNS" and "UN"
    // UNSUPPORTED, "CON" and "CONT" CONTRADICTED; " SUPPORT" (a space), "Support", "Supported",
    // "supported", "Unsupported", " CONTR", "Contr", "RE", "NOT", "UNKNOWN" and "UNC" are no verdict's start.
    const share = (sup: number, uns: number[], con: number[]) => Math.exp(sup) / (Math.exp(sup) + mass(...uns) + mass(...con));
    const want = [
      share(-0.11126895248889923, [-3.080709457397461, -5.334939956665039], [-3.315919876098633, -7.357175827026367]),
      share(-0.4382743537425995, [-1.7344950437545776, -3.866344451904297], [-2.0149765014648438, -6.744109153747559]),
      share(-0.5727788805961609, [-1.7384568452835083, -3.4371397495269775], [-1.589361310005188, -6.212949752807617]),
      share(-0.5733779072761536, [-1.2050117254257202, -3.202303171157837], [-2.5131895542144775, -6.543344974517822]),
    ];
    expect(s).toHaveLength(4);
    for (const [i, w] of want.entries()) expect(s[i]).toBeCloseTo(w, 12);
    // about 0.911, 0.660, 0.577, 0.571
    expect(s.map((x) => Number(x?.toFixed(3)))).toEqual([0.911, 0.66, 0.577, 0.571]);
  });

  it("the same reply's tokens without the fence spell the content: the same supports", () => {
    const plain = FENCED.logprobs.slice(3, -3);
    // the tokens without "```", "json", "\n" before and "}\n", "```", "" after spell the content but its last "}"
    expect(`${plain.map((x) => x.token).join("")}}`).toBe(FENCED.content);
    const whole = [...plain, { token: "}", logprob: 0, bytes: [125] }];
    expect(verdictSupports(FENCED.content, whole)).toEqual(verdictSupports(FENCED.content, FENCED.logprobs));
  });

  it("a content found twice in the tokens (a draft and the final block) is ambiguous: nothing placed", () => {
    const twice = [...FENCED.logprobs.slice(3, -3), { token: "}\n", logprob: 0 }, ...FENCED.logprobs.slice(3, -3), { token: "}", logprob: 0 }];
    expect(verdictSupports(FENCED.content, twice)).toEqual([]);
  });

  it("tokens split inside a multibyte character are joined by their bytes", () => {
    // Built by hand, not recorded (the verdict replies measured hold ASCII only): "é" (C3 A9) in two
    // byte tokens whose texts are replacement characters, as a tokenizer's byte fallback gives them.
    const tokens = [
      { token: '{"verdict": "', logprob: 0 },
      t("S", [
        ["S", 0.8],
        ["UN", 0.2],
      ]),
      { token: 'UPPORTED", "chunk_ids": ["caf', logprob: 0 },
      { token: "\ufffd", logprob: 0, bytes: [0xc3] },
      { token: "\ufffd", logprob: 0, bytes: [0xa9] },
      { token: '#p1"]}', logprob: 0 },
    ];
    const content = '{"verdict": "SUPPORTED", "chunk_ids": ["café#p1"]}';
    expect(verdictSupports(content, tokens)[0]).toBeCloseTo(0.8, 12); // 0.8 / (0.8 + 0.2)
  });
});
