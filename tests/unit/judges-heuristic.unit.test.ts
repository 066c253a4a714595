import { wordSegments } from "@ragmeter/golden";
import { describe, expect, it } from "vitest";
import { isAbstention } from "../../core/src/domain/metrics/abstention.js";
import { createHeuristicJudge, heuristicClaims, heuristicRelevance, heuristicVerdict } from "../../core/src/judges/heuristic/heuristicJudge.js";
import { chineseNumeralsToDigits, chineseNumeralValue, mergeNumberWords } from "../../core/src/judges/heuristic/numerals.js";
import { stem } from "../../core/src/judges/heuristic/stem.js";
import { judgeGrounding } from "../../core/src/judges/types.js";

// Cyrillic and CJK text through the heuristic judges (design §5). The English cases (port 5433 vs
// 5432, an invented number) live in heuristic.unit.test.ts.
const judge = createHeuristicJudge();

describe("heuristic judges on Russian text", () => {
  it("a Russian answer adding an invented price absent from the chunk: first claim SUPPORTED, second UNSUPPORTED → 0.5", async () => {
    const g = await judgeGrounding(judge, {
      question: "Сколько хранятся бэкапы?",
      answer: "Бэкапы хранятся 14 дней. Восстановление стоит 5 рублей.",
      chunks: [{ id: "r", text: "Ежедневные бэкапы хранятся 14 дней." }],
    });
    expect(g.claims.map((c) => [c.text, c.verdict, c.chunk_ids])).toEqual([
      ["Бэкапы хранятся 14 дней.", "SUPPORTED", ["r"]],
      ["Восстановление стоит 5 рублей.", "UNSUPPORTED", []],
    ]);
    expect(g.value).toBe(0.5);
  });
  it("Russian relevance: stop words (какой) dropped; {порт, использует, postgresql} all in the answer → round(4·3/3) = 4", () => {
    expect(heuristicRelevance({ question: "Какой порт использует PostgreSQL?", answer: "PostgreSQL использует порт 5432.", answerable: true })).toEqual({
      value: 4,
      reason: "3 of 3 question tokens in the answer",
    });
  });
  it("Russian abstentions: a declining answer on an answerable question scores relevance 1 and makes no claim", () => {
    for (const a of ["К сожалению, в документации нет информации об этом.", "Извините, я не нашёл ответа.", "Я не знаю."]) {
      expect(isAbstention(a)).toBe(true);
      expect(heuristicClaims(a)).toEqual([]);
      expect(heuristicRelevance({ question: "Как сбросить пароль базы данных?", answer: a, answerable: true }).value).toBe(1);
    }
    expect(heuristicClaims("Сервер перезагружается за 2 минуты. Я не знаю, сколько стоит IP.")).toEqual(["Сервер перезагружается за 2 минуты."]);
  });
});

describe("heuristic judges on Chinese text (character bigrams)", () => {
  it("端口5433 against a chunk saying 端口5432 → CONTRADICTED", () => {
    expect(heuristicVerdict("数据库监听端口5433。", [{ id: "z", text: "托管数据库监听端口5432。" }])).toEqual({ verdict: "CONTRADICTED", chunk_ids: ["z"] });
  });
  it("a Chinese claim adding an invented price → UNSUPPORTED", () => {
    expect(heuristicVerdict("备份保留14天，每个收费3元。", [{ id: "z", text: "每日备份保留14天。" }])).toEqual({ verdict: "UNSUPPORTED", chunk_ids: [] });
  });
  it("Chinese relevance over bigrams and a Chinese abstention", () => {
    // question bigrams: 如何 何重 重置 置数 数据 据库 库密 密码 (8); answer has 重置 置数 数据 据库 库密 密码 → 6/8 ≥ 0.5 → 4
    expect(heuristicRelevance({ question: "如何重置数据库密码？", answer: "在控制面板中重置数据库密码。", answerable: true }).value).toBe(4);
    for (const a of ["抱歉，我找不到相关内容。", "文档中没有提到这一点。"]) {
      expect(isAbstention(a)).toBe(true);
      expect(heuristicRelevance({ question: "如何重置数据库密码？", answer: a, answerable: true }).value).toBe(1);
    }
  });
  it("mixed Chinese and English sentences split on 。 and .", () => {
    expect(heuristicClaims("端口是5432。Backups run daily.")).toEqual(["端口是5432。", "Backups run daily."]);
  });
});

describe("heuristic judges v2: stems, number words, scripts (issue 13)", () => {
  it("reads English, Russian and Chinese number words as numbers", () => {
    expect(mergeNumberWords(wordSegments("two hundred and fifty gigabytes")).map((s) => s.text)).toEqual(["250", "gigabytes"]);
    expect(mergeNumberWords(wordSegments("twenty-four hours")).map((s) => s.text)).toEqual(["24", "hours"]);
    expect(mergeNumberWords(wordSegments("в течение шестидесяти дней")).map((s) => s.text)).toEqual(["в", "течение", "60", "дней"]);
    expect(mergeNumberWords(wordSegments("двести пятьдесят")).map((s) => s.text)).toEqual(["250"]);
    expect(mergeNumberWords(wordSegments("three thousand two hundred")).map((s) => s.text)).toEqual(["3200"]);
    expect(chineseNumeralValue("二百五十")).toBe(250);
    expect(chineseNumeralValue("十五")).toBe(15);
    expect(chineseNumeralValue("一万二千")).toBe(12000);
    expect(chineseNumeralsToDigits("提前十五天购买，等待期为六个月，统一收费")).toBe("提前15天购买，等待期为6个月，统一收费");
  });
  it("stems inflected English and Russian words to one form", () => {
    expect(stem("restarted")).toBe(stem("restarts"));
    expect(stem("заявление")).toBe(stem("заявления"));
    expect(stem("ёлка")).toBe(stem("елка"));
  });
  it("judges paraphrases by stems and numbers written as words", () => {
    const chunk = [{ id: "c1", text: "Support answers every ticket within 24 hours." }];
    expect(heuristicVerdict("Support answers tickets within twenty-four hours.", chunk).verdict).toBe("SUPPORTED");
    expect(heuristicVerdict("Support answers tickets within forty-eight hours.", chunk).verdict).toBe("CONTRADICTED");
    const ru = [{ id: "c1", text: "Заявление на выплату нужно подать в течение 90 дней после лечения." }];
    expect(heuristicVerdict("Заявление на выплату нужно подать в течение шестидесяти дней после лечения.", ru).verdict).toBe("CONTRADICTED");
  });
  it("across scripts compares numbers only", () => {
    const ru = [{ id: "c1", text: "Товар можно вернуть в течение 14 дней после получения." }];
    expect(heuristicVerdict("You can return a product within 14 days.", ru)).toEqual({ verdict: "SUPPORTED", chunk_ids: ["c1"] });
    expect(heuristicVerdict("You can return a product within 30 days.", ru).verdict).toBe("UNSUPPORTED");
    expect(heuristicVerdict("It includes phone support.", ru).verdict).toBe("UNSUPPORTED");
  });
});
