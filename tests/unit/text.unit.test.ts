import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SAMPLE_CORPUS_DIR, SAMPLE_GOLDEN_FILE } from "../../examples/sample-rag/src/index.js";
import { sentences, wordLikeSegments, wordSegments } from "../../golden/src/index.js";

const icu = new Intl.Segmenter(undefined, { granularity: "word" });
const icuWords = (t: string): string[] => [...icu.segment(t)].filter((s) => s.isWordLike).map((s) => s.segment);

function corpusLines(): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(path.join(d, e.name));
      else out.push(...readFileSync(path.join(d, e.name), "utf8").split("\n"));
    }
  };
  walk(SAMPLE_CORPUS_DIR);
  for (const l of readFileSync(SAMPLE_GOLDEN_FILE, "utf8").split("\n")) {
    if (!l.trim()) continue;
    const j = JSON.parse(l) as { question: string; reference_answer?: string };
    out.push(j.question, j.reference_answer ?? "");
  }
  return out;
}

describe("word segmentation (design §5: word-like segments)", () => {
  it("the UAX #29 scanner gives exactly Intl.Segmenter's word-like segments on the whole bundled corpus and golden set", () => {
    const lines = corpusLines();
    expect(lines.length).toBeGreaterThan(1000);
    for (const line of lines) expect(wordLikeSegments(line.toLowerCase()), line).toEqual(icuWords(line.toLowerCase()));
  });

  it("agrees with Intl.Segmenter on the boundary rules it implements", () => {
    for (const t of [
      "a:b",
      "e.g. this",
      "example.com is",
      "don't stop",
      "rock'n'roll",
      "3.5kg",
      "x_y",
      "1,000 users",
      "U.S.A. and",
      "1.a",
      "1'a",
      "a'1",
      "l'été",
      "10:30",
      "it’s",
      "a__b",
      "Порт 5432 открыт",
      "Ελληνικά κείμενα",
      "naïve café",
    ]) {
      expect(wordLikeSegments(t), t).toEqual(icuWords(t));
    }
  });

  it("numbers keep their decimal point and thousands separators are removed; CJK runs become bigrams", () => {
    expect(wordSegments("It costs €4.90, or 1,000 for all.").map((s) => s.text)).toEqual(["it", "costs", "4.90", "or", "1000", "for", "all"]);
    expect(wordSegments("水的沸点是100摄氏度").map((s) => s.text)).toEqual(["水的", "的沸", "沸点", "点是", "100", "摄氏", "氏度"]);
    expect(wordSegments("สวัสดีครับ").length).toBeGreaterThan(0); // Thai goes through ICU's dictionary
  });

  it("splits sentences, CJK full-width terminators included", () => {
    expect(sentences("Port 22 is open. 第一句。第二句！Last one?")).toEqual(["Port 22 is open.", "第一句。", "第二句！", "Last one?"]);
  });
});
