import { normalizeText } from "@ragmeter/golden";
import { type MechanicalMetric, measured } from "../metric.js";

/**
 * Phrases that mark an answer as declining to answer (English, Russian, Chinese), matched on the
 * lower-cased, normalised answer.
 */
const ABSTENTION_PHRASES: readonly string[] = [
  "could not find",
  "couldn't find",
  "can't find",
  "cannot find",
  "unable to find",
  "not able to find",
  "no information",
  "not in the documentation",
  "not covered",
  "does not mention",
  "doesn't mention",
  "do not know",
  "don't know",
  "cannot answer",
  "can't answer",
  "unable to answer",
  "i'm not sure",
  "could not locate",
  "couldn't locate",
  "no relevant information",
  "can't help with",
  "cannot help with",
  "unable to help with",
  "not contain information",
  "don't contain information",
  "doesn't contain information",
  "not contain any information",
  "не удалось найти",
  "не смог найти",
  "не могу найти",
  "нет информации",
  "не знаю",
  "не могу ответить",
  "в документации нет",
  "не найдено",
  "не нашёл",
  "не нашел",
  "не нашла",
  "информации нет",
  "не могу помочь",
  "не содержат информации",
  "не содержит информации",
  "не знаем",
  "无法找到",
  "找不到",
  "没有相关信息",
  "不知道",
  "没有找到",
  "未找到",
  "没有提到",
  "无法回答",
  "不清楚",
  "无法帮助",
  "不能回答",
  "没有关于",
  "没有相关",
].map((p) => normalizeText(p).toLowerCase());

/** True when `text` (an answer or one sentence of it) declines to answer. Empty text declines. */
export function isAbstention(text: string): boolean {
  const t = normalizeText(text).toLowerCase().replace(/’/gu, "'");
  if (t.length === 0) return true;
  return ABSTENTION_PHRASES.some((p) => t.includes(p));
}

/** `abstention`: 1 when an unanswerable question was declined, 0 when it was answered. */
export const ABSTENTION: MechanicalMetric = {
  name: "abstention",
  kind: "answer",
  needs: ["unanswerable", "answer"],
  live: false,
  optional: false,
  headline: false,
  byTag: true,
  trend: false,
  evaluationLabel: (value) => (value === 1 ? "abstained" : "answered"),
  compute: (input) => measured(input.abstained ? 1 : 0),
};
