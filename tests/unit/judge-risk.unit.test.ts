import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { goodAnswers, judgeDevDir, loadRagTruth, type RagTruthAnswer } from "../../bench/judges/ragtruth.js";
import { claimSpans } from "../../core/src/judges/heuristic/claims.js";
import { createHeuristicJudge } from "../../core/src/judges/heuristic/heuristicJudge.js";
import { committedGroundingModel, riskOf } from "../../core/src/judges/heuristic/model.js";
import { normalizeNumbers, scriptOf, tokenize } from "../../core/src/judges/heuristic/tokens.js";
import type { GroundingJudgment } from "../../core/src/judges/types.js";
import { judgeGrounding } from "../../core/src/judges/types.js";

// Issue 40: the heuristic judge's grounding risk, and the classes it found, each tested on text
// written elsewhere — sentences of the RAGTruth QA development passages and answers (Niu et al.,
// ACL 2024, MIT; ../shared/judge-dev), and strings quoted in other projects' bug reports and style
// guides (named at each test) — each beside a control the judge must get the other way.
const judge = createHeuristicJudge();
const model = committedGroundingModel();
type Chunk = { id: string; text: string };
const grounding = (answer: string, chunks: Chunk[], question = ""): Promise<GroundingJudgment> => judgeGrounding(judge, { question, answer, chunks });
const verdicts = async (answer: string, chunks: Chunk[]) => (await grounding(answer, chunks)).claims.map((c) => c.verdict);

describe("riskOf: an answer's grounding risk from its claims' support probabilities", () => {
  it("min, noisy-or and the two weakest claims, by hand", () => {
    const p = [0.9, 0.5, 0.8];
    expect(riskOf("min", p)).toBeCloseTo(0.5, 12);
    expect(riskOf("noisy_or", p)).toBeCloseTo(1 - 0.9 * 0.5 * 0.8, 12); // 0.64
    expect(riskOf("two_weakest", p)).toBeCloseTo(1 - 0.5 * 0.8, 12); // 0.6
    expect(riskOf("two_weakest", [0.7])).toBeCloseTo(0.3, 12);
    for (const a of ["min", "noisy_or", "two_weakest"] as const) expect(riskOf(a, [])).toBe(0);
  });

  it("the judge stores it on every ok judgment, from its claims' support, and none on no_claims", async () => {
    const chunk = { id: "p2", text: "To win the nomination, a candidate must win the votes of at least 1,191 delegates at the convention." };
    const g = await grounding("A candidate must win at least 1,191 delegates. The convention is held in Ohio.", [chunk]);
    expect(g.status).toBe("ok");
    const supports = g.claims.map((c) => c.support as number);
    expect(g.risk).toBeCloseTo(riskOf(model.risk.aggregate, supports), 12);
    expect(g.risk).toBeGreaterThan(0);
    expect(g.risk).toBeLessThanOrEqual(1);
    const none = await grounding("I hope this helps! Let me know if you have any questions.", [chunk]);
    expect([none.status, none.value, none.risk]).toEqual(["no_claims", null, undefined]);
  });
});

describe("a negated claim (issue 40)", () => {
  // sentence-transformers issue 1330 ("Negation handling": these two score cosine 0.947), and RAGTruth dev passages 12167#p2, 15383#p3, 15583#p1 with the negation taken out
  const pairs: [string, string][] = [
    ["It’s an exchange or return.", "It’s not an exchange or return."],
    ["It’s not an exchange or return.", "It’s an exchange or return."],
    ["The skill moves are new to any FIFA fan.", "The skill moves are not new to any FIFA fan."],
    ["If we are serving others for those reasons, we are serving or loving properly.", "If we are serving others for those reasons, we are not serving or loving properly."],
    [
      "Remove the casserole dish from the oven and pour off any beer that has evaporated.",
      "Remove the casserole dish from the oven and pour off any beer that has not evaporated.",
    ],
  ];
  it("is CONTRADICTED by the chunk sentence that says the rest of it with the other polarity; the same sentence with the chunk's polarity is SUPPORTED", async () => {
    for (const [claim, chunk] of pairs) {
      expect([claim, await verdicts(claim, [{ id: "c", text: chunk }])]).toEqual([claim, ["CONTRADICTED"]]);
      expect([chunk, await verdicts(chunk, [{ id: "c", text: chunk }])]).toEqual([chunk, ["SUPPORTED"]]);
    }
  });
  it("a long chunk sentence that negates another clause of its own does not contradict (RAGTruth passage 15395#p1)", async () => {
    const chunk = { id: "c", text: "Bake in preheated oven until crumbs are dry but not toasted, 6 to 8 minutes." };
    expect(await verdicts("Bake the crumbs in a preheated oven for 6 to 8 minutes.", [chunk])).not.toContain("CONTRADICTED");
  });
  it("a negation that bears on a word the chunk sentence lacks does not contradict it (the sample corpus's TLS page and the sample pipeline's answer to q030)", async () => {
    const chunk = {
      id: "c",
      text: "Load balancers accept TLS 1.2 and TLS 1.3 by default. You can raise the minimum to TLS 1.3 if all your clients support it. TLS 1.0 and TLS 1.1 are not supported at all.\n\n`nimbus lb tls set shop-lb --min-version 1.3`",
    };
    expect(await verdicts("TLS 1.0 and TLS 1.1 are not supported at all. nimbus lb tls set shop-lb --min-version 1.3.", [chunk])).toEqual(["SUPPORTED"]);
  });
});

describe("one Han or Cyrillic character does not flip the language (issue 40)", () => {
  it("a text's script is the one most of its words are in (volcengine/OpenViking PR 658; optimaize/language-detector issue 63; shuyo/language-detection issue 95)", () => {
    expect(scriptOf("这是中文 Д 再继续")).toBe("han");
    expect(scriptOf("Hello Ф world")).toBe("latin");
    expect(scriptOf("Это русский текст")).toBe("cyrillic");
    expect(scriptOf("小猫终于换发型！ Ariana Grande为新砖染白金长发 爱莉安娜为新专辑变金发")).toBe("han");
    expect(scriptOf("Javigator：Java設計")).toBe("han"); // 2 Latin words, 2 Han characters: a tie goes to Han
    expect(scriptOf("2024")).toBe("none");
  });
  it("an English claim is read by its words against an English chunk holding one Cyrillic letter (the emoticon of OpenViking PR 658), and against one with a Han gloss", async () => {
    const claim = "The skill moves are not new to any FIFA fan."; // RAGTruth dev passage 12167#p2
    expect(await verdicts(claim, [{ id: "c", text: `${claim} (｡>д<)` }])).toEqual(["SUPPORTED"]);
    expect(await verdicts("The skill moves (中文) are not new to any FIFA fan.", [{ id: "c", text: claim }])).toEqual(["SUPPORTED"]);
    // control: an English claim against a chunk that is Russian by most of its words is still compared by numbers only
    expect(await verdicts(claim, [{ id: "c", text: "Это русский текст (FIFA)." }])).toEqual(["UNSUPPORTED"]);
  });
});

describe("markdown lines are no claims (issue 40)", () => {
  // the development data's own README (../shared/judge-dev/README.md), written by whoever prepared it
  const readme = path.join(judgeDevDir(), "README.md");
  it.skipIf(!existsSync(readme))("headings, a table's header and separator rows give no claim; each data row is one claim of its cells", () => {
    const text = readFileSync(readme, "utf8");
    const start = text.indexOf("| model | answers | hallucinated |");
    const table = text.slice(start, text.indexOf("\n\n", start));
    const md = `## Files\n\n${table}\n\n### Provenance`;
    const claims = claimSpans(md);
    expect(claims.map((c) => c.core)).toEqual([
      "gpt-3.5-turbo-0613, 68, 4",
      "gpt-4-0613, 71, 1",
      "llama-2-13b-chat, 72, 16",
      "llama-2-70b-chat, 69, 19",
      "llama-2-7b-chat, 74, 24",
      "mistral-7B-instruct, 64, 16",
    ]);
    expect(claims[0]?.text).toBe("| gpt-3.5-turbo-0613 | 68 | 4 |");
  });
  it("a bold-only bullet line is a heading; a bullet with a sentence is a claim", () => {
    // RAGTruth dev answer 14134's bullet, under a bold heading line
    expect(claimSpans("* **Potential energy**\n* A stretched rubber band has elastic potential energy (Passage 2).").map((c) => c.text)).toEqual([
      "* A stretched rubber band has elastic potential energy (Passage 2).",
    ]);
  });
});

describe("numbers written differently are matched (issue 40)", () => {
  it("digit grouping, words for magnitudes, percent signs and words, magnitude suffixes", () => {
    const numbers = (t: string) => [...tokenize(t).numbers];
    expect(numbers("1,000,000")).toEqual(["1000000"]);
    expect(numbers("1 000 000")).toEqual(["1000000"]);
    expect(numbers("1\u202f000\u202f000")).toEqual(["1000000"]);
    expect(numbers("2.5 million")).toEqual(["2500000"]);
    expect(numbers("2,500,000")).toEqual(["2500000"]);
    expect(numbers("$2.5M")).toEqual(["2500000"]);
    expect(numbers("1.5bn")).toEqual(["1500000000"]);
    expect(numbers("10k")).toEqual(["10000"]);
    for (const t of ["45%", "45 %", "45 percent", "45 per cent", "45 процентов"]) expect([t, numbers(t)]).toEqual([t, ["45"]]);
    expect(numbers("a few thousand dollars")).toEqual([]);
    expect(numbers("300KB")).toEqual(["300"]);
    expect(numbers("5 M")).toEqual(["5"]); // metres or mega, not a million, without a currency sign
    expect(normalizeNumbers("in 2019 100 people")).toBe("in 2019 100 people"); // a year then a number: no grouping
  });
  it("a RAGTruth passage sentence with its number rewritten is SUPPORTED; with another number it is not", async () => {
    const cases: [Chunk, string, string][] = [
      [
        { id: "15480", text: "Last month, 200,000 private Snapchat photos were leaked via a third-party app." },
        "Last month, 200000 private Snapchat photos were leaked via a third-party app.",
        "Last month, 300,000 private Snapchat photos were leaked via a third-party app.",
      ],
      [
        { id: "12762", text: "The enterprise is subject to 100 percent tax-holiday for the first 10 years." },
        "The enterprise is subject to a 100% tax-holiday for the first 10 years.",
        "The enterprise is subject to a 50% tax-holiday for the first 10 years.",
      ],
      [
        { id: "15006", text: "When the division of the developing zygote into 2 embryos occurs, 99% of the time it is within 8 days of fertilization." },
        "When the zygote divides into two embryos, 99 percent of the time it is within eight days of fertilization.",
        "When the zygote divides into two embryos, 90 percent of the time it is within eight days of fertilization.",
      ],
    ];
    for (const [chunk, same, other] of cases) {
      expect([same, await verdicts(same, [chunk])]).toEqual([same, ["SUPPORTED"]]);
      expect([other, await verdicts(other, [chunk])]).not.toEqual([other, ["SUPPORTED"]]);
    }
  });
});

describe("a pleasantry states no fact (issue 40)", () => {
  // a public style guide's list of LLM 'fluff', ragas issue 580, public LLM-written READMEs, RAGTruth dev answers 12263, 15719, 15905
  const pleasantries = [
    "Certainly! Here's what I found.",
    "Of course! I'll help you resolve this.",
    "I hope this helps! Let me know if you have any questions.",
    "Feel free to reach out if you need further clarification.",
    "Let me know if you'd like me to elaborate on any of these points.",
    "Can I help you with anything else today?",
    "Good luck with your deployment! 🚀",
    "**Good luck with your app launch! 🚀**",
    "Sure, I can help you with that!",
    "Let me know if you need further clarification or if there's anything else I can help you with.",
    "Sure, I'll do my best to help you!",
  ];
  const chunk = { id: "p1", text: "To win the nomination, a candidate must win the votes of at least 1,191 delegates at the convention." };
  it("an answer of pleasantries only is no_claims, not an unsupported claim", async () => {
    for (const p of pleasantries) {
      const g = await grounding(p, [chunk]);
      expect([p, g.status, g.claims.length]).toEqual([p, "no_claims", 0]);
    }
  });
  it("around a fact, only the fact is judged (SUPPORTED); a fact phrased politely is still a claim", async () => {
    const answer = `${pleasantries[0]} A candidate must win the votes of at least 1,191 delegates. ${pleasantries[2]}`;
    expect((await grounding(answer, [chunk])).claims.map((c) => [c.text, c.verdict])).toEqual([["A candidate must win the votes of at least 1,191 delegates.", "SUPPORTED"]]);
    expect(await verdicts("I hope this helps: a candidate must win the votes of at least 1,500 delegates.", [chunk])).toHaveLength(1);
  });
});

const devFile = path.join(judgeDevDir(), "ragtruth-qa-dev.jsonl");
describe.skipIf(!existsSync(devFile))("one invented sentence among faithful ones (issue 40; RAGTruth dev)", () => {
  it("is not SUPPORTED, and the answer's risk passes the model's threshold (the clean answer's is below it)", async () => {
    const byId = new Map<string, RagTruthAnswer>(goodAnswers(loadRagTruth(devFile)).map((a) => [a.id, a]));
    const clean = byId.get("16506") as RagTruthAnswer; // a clean answer, every claim SUPPORTED
    const invented = "Poor nutrition: Adequate nutrition is crucial for building muscle and losing fat."; // labelled hallucinated in answer 16509 to the same question
    const input = { question: clean.question, chunks: clean.passages };
    const before = await judgeGrounding(judge, { ...input, answer: clean.response });
    const spans = claimSpans(clean.response);
    const at = (spans[1] as { start: number }).start;
    const after = await judgeGrounding(judge, { ...input, answer: `${clean.response.slice(0, at)}${invented} ${clean.response.slice(at)}` });
    expect(before.value).toBe(1);
    expect(before.risk).toBeLessThan(model.risk.threshold);
    expect(after.claims.find((c) => c.text === invented)?.verdict).not.toBe("SUPPORTED");
    expect(after.value).toBeLessThan(1);
    expect(after.risk).toBeGreaterThanOrEqual(model.risk.threshold);
  });
});
