import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  CATEGORIES,
  caseProblems,
  groundingFromLabels,
  JUDGE_CASES_PATH,
  judgeCaseSchema,
  LANGUAGES,
  loadJudgeCases,
  MIN_CASES_PER_LANGUAGE,
  REQUIRED_PARAPHRASE_KINDS,
  splitSentences,
} from "../../bench/judges/cases.js";
import { sentences } from "../../golden/src/index.js";

// The hand-labelled judge benchmark set (bench/judges/, issue 13): every line valid, the writing rule
// (one sentence = one claim) checked with the heuristic judge's own sentence splitting.
const lines = readFileSync(JUDGE_CASES_PATH, "utf8")
  .split("\n")
  .filter((l) => l.trim().length > 0);
const cases = loadJudgeCases();

describe("bench/judges/cases.jsonl", () => {
  it("every line is one valid case", () => {
    expect(cases.length).toBe(lines.length);
    lines.forEach((l, i) => {
      const r = judgeCaseSchema.safeParse(JSON.parse(l));
      expect(r.success, `line ${i + 1}: ${r.success ? "" : r.error.message}`).toBe(true);
    });
  });

  it("ids are unique", () => {
    const ids = cases.map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it(`each language has ≥ ${MIN_CASES_PER_LANGUAGE} cases, every category, and every paraphrase kind it can have`, () => {
    for (const lang of LANGUAGES) {
      const mine = cases.filter((c) => c.language === lang);
      expect(mine.length, lang).toBeGreaterThanOrEqual(MIN_CASES_PER_LANGUAGE);
      for (const cat of CATEGORIES)
        expect(
          mine.some((c) => c.category === cat),
          `${lang} ${cat}`,
        ).toBe(true);
      const kinds = new Set(mine.flatMap((c) => c.paraphrase ?? []));
      for (const k of REQUIRED_PARAPHRASE_KINDS[lang]) expect(kinds.has(k), `${lang} paraphrase ${k}`).toBe(true);
    }
  });

  it("about a third of the set in each language", () => {
    for (const lang of LANGUAGES) {
      const share = cases.filter((c) => c.language === lang).length / cases.length;
      expect(share, lang).toBeGreaterThan(0.28);
      expect(share, lang).toBeLessThan(0.39);
    }
  });

  it("expected_grounding is SUPPORTED / claims from the labels; zero claims → null and no_claims", () => {
    for (const c of cases) {
      const g = groundingFromLabels(c.claims);
      if (g === null) {
        expect(c.expected_grounding, c.id).toBeNull();
        expect(c.expected_grounding_status, c.id).toBe("no_claims");
      } else {
        expect(c.expected_grounding, c.id).toBeCloseTo(g, 9);
        expect(c.expected_grounding_status, c.id).toBe("ok");
      }
    }
  });

  it("the claims, in order, are the answer's sentences (Intl.Segmenter + 。！？), one claim each", () => {
    for (const c of cases) {
      if (c.claims.length === 0) continue;
      expect(
        c.claims.map((x) => x.text),
        c.id,
      ).toEqual(splitSentences(c.answer));
    }
  });

  it("relevance ranges lie in 0–4 with min ≤ max", () => {
    for (const c of cases) {
      expect(c.relevance.min, c.id).toBeGreaterThanOrEqual(0);
      expect(c.relevance.max, c.id).toBeLessThanOrEqual(4);
      expect(c.relevance.min, c.id).toBeLessThanOrEqual(c.relevance.max);
    }
  });

  it("the README's table of counts per language × category is the file's", () => {
    const readme = readFileSync(new URL("../../bench/judges/README.md", import.meta.url), "utf8");
    for (const cat of CATEGORIES) {
      const row = readme.split("\n").find((l) => l.startsWith(`| ${cat} |`));
      expect(row, cat).toBeDefined();
      const counts = LANGUAGES.map((lang) => cases.filter((c) => c.language === lang && c.category === cat).length);
      expect(row, cat).toBe(`| ${cat} | ${counts.join(" | ")} | ${counts.reduce((a, b) => a + b, 0)} |`);
    }
  });

  it("no case breaks the label, context or language rules (blank chunks support nothing; cross-lingual chunks in another language)", () => {
    const problems = cases.flatMap((c) => caseProblems(c).map((p) => `${c.id}: ${p}`));
    expect(problems).toEqual([]);
  });
});

describe("the sentence splitting the set is checked with", () => {
  it("splits on . ? ! and on CJK 。！？, keeps decimals and times whole", () => {
    expect(splitSentences("Backups are kept for 14 days. The plan costs 4.90 dollars a month!")).toEqual(["Backups are kept for 14 days.", "The plan costs 4.90 dollars a month!"]);
    expect(splitSentences("备份保留14天。套餐每月9.9元！")).toEqual(["备份保留14天。", "套餐每月9.9元！"]);
    expect(splitSentences("Поддержка работает с 9:00 до 18:00. Звонок бесплатный.")).toEqual(["Поддержка работает с 9:00 до 18:00.", "Звонок бесплатный."]);
    expect(splitSentences("")).toEqual([]);
  });
  it("agrees with the product's own sentence splitting on every answer of the set", () => {
    for (const c of cases) expect(splitSentences(c.answer), c.id).toEqual(sentences(c.answer));
  });
});
