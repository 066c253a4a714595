import { normalizeText, numbersIn } from "@ragmeter/golden";
import { type MechanicalMetric, measured } from "../metric.js";
import { none, ok, type Scored } from "../status.js";

/**
 * Key-facts metric (design §5): share of `keyFacts` found in `answer`. A fact is found when the
 * normalised (NFC, folded whitespace, lower-case) answer contains the normalised fact, or when the
 * fact is a number (optionally with a currency sign or unit) whose canonical value is among the
 * answer's numbers ("1,000" matches "1000"). No key facts → `not_applicable`.
 */
export function keyFactsScore(answer: string, keyFacts: readonly string[] | null): Scored & { found?: boolean[] } {
  if (keyFacts === null || keyFacts.length === 0) return none("not_applicable", "golden item has no key_facts");
  const a = normalizeText(answer).toLowerCase();
  const answerNumbers = new Set(numbersIn(answer));
  const found = keyFacts.map((f) => {
    const nf = normalizeText(f).toLowerCase();
    if (a.includes(nf)) return true;
    const nums = numbersIn(f);
    const rest = nf.replace(/[\d.,\s€$£%]/gu, "");
    return nums.length === 1 && rest.length <= 3 && answerNumbers.has(nums[0] as string);
  });
  return { ...ok(found.filter(Boolean).length / keyFacts.length), found };
}

/** Key facts: the share of the golden item's key facts the answer states. */
export const KEY_FACTS: MechanicalMetric = {
  name: "key_facts",
  kind: "answer",
  needs: ["facts", "answer"],
  live: false,
  optional: false,
  label: "key facts",
  headline: true,
  byTag: true,
  trend: true,
  color: "#8c564b",
  compute(input) {
    const s = keyFactsScore(input.answer, input.expect?.key_facts ?? null);
    return s.status === "ok" ? measured(s.value) : { status: s.status, value: null, reason: s.reason ?? "" };
  },
};
