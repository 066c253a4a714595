import { createHash } from "node:crypto";
import { STOP_WORDS, sentences, wordSegments } from "@ragmeter/golden";
import type { RetrievedChunk } from "./retriever.js";

/** The sentence the sample pipeline answers with when nothing retrieved matches the question. */
export const SAMPLE_ABSTENTION = "Sorry, I could not find that in the documentation.";

/**
 * Content tokens of `text`: word segments minus stop words (numbers included), cut to their first
 * five characters — a crude stemmer that lets "servers"/"server" and "проекте"/"проект" meet.
 */
function contentTokens(text: string): Set<string> {
  return new Set(
    wordSegments(text)
      .map((s) => s.text)
      .filter((t) => !STOP_WORDS.has(t))
      .map((t) => Array.from(t).slice(0, 5).join("")),
  );
}

/**
 * Extractive answer: the sentences of the top 3 chunks that share the most content tokens with
 * the question (the best `maxSentences`, in their original order). When the best sentence shares fewer than
 * `minOverlap` tokens or less than 40% of the question's tokens, the answer is
 * {@link SAMPLE_ABSTENTION}.
 */
export function extractiveAnswer(question: string, contexts: readonly RetrievedChunk[], minOverlap = 2, minShare = 0.3, maxSentences = 2): string {
  const q = contentTokens(question);
  if (q.size === 0) return SAMPLE_ABSTENTION;
  const candidates: { s: string; overlap: number; order: number }[] = [];
  let order = 0;
  for (const c of contexts.slice(0, 3)) {
    for (const s of sentences(c.text.replace(/\n/gu, ". ").replace(/\.\s*\./gu, "."))) {
      const t = contentTokens(s);
      let overlap = 0;
      for (const tok of q) if (t.has(tok)) overlap++;
      candidates.push({ s, overlap, order: order++ });
    }
  }
  const ranked = [...candidates].sort((a, b) => b.overlap - a.overlap || a.order - b.order);
  const best = ranked[0];
  if (!best || best.overlap < minOverlap || best.overlap / q.size < minShare) return SAMPLE_ABSTENTION;
  const chosen = ranked.slice(0, maxSentences).filter((c) => c.overlap >= Math.max(minOverlap, best.overlap - 1));
  return chosen
    .sort((a, b) => a.order - b.order)
    .map((c) => (/[.!?。！？]$/u.test(c.s) ? c.s : `${c.s}.`))
    .join(" ");
}

/** The sentence version 2's fault adds when the answer has no number to alter. */
export const FAULT_SENTENCE = "This is included free of charge on every plan since the 2019 platform upgrade.";

/**
 * The deliberate fault of sample pipeline version 2 (documented in the README): for one answer in
 * three (chosen by a hash of the question, so it is deterministic), the first number of the answer
 * is increased by one (e.g. port 5432 becomes 5433), or, when the answer has no number,
 * {@link FAULT_SENTENCE} — a claim no chunk supports — is appended. Abstentions are left alone.
 */
export function injectFault(question: string, answer: string): string {
  if (answer === SAMPLE_ABSTENTION) return answer;
  const h = createHash("sha256").update(question).digest();
  if ((h[0] ?? 0) % 3 !== 0) return answer;
  const m = /\d+/u.exec(answer);
  if (m) return `${answer.slice(0, m.index)}${Number(m[0]) + 1}${answer.slice(m.index + m[0].length)}`;
  return `${answer} ${FAULT_SENTENCE}`;
}
