// `ragmeter golden draft --from-traffic`: distinct real questions of captured traffic, near-duplicates
// merged, a sample spread over services and time, each with the top retrieved document and a
// sentence of it proposed as its expected source. No LLM.
import { normalizeText, questionWords, wordJaccard } from "@ragmeter/golden";
import type { TrafficQuestion } from "@ragmeter/store/traffic";
import { proposedSubstring } from "../onboard/files.js";
import type { DraftedItem } from "./reviewFile.js";

/**
 * Word-set Jaccard at or above which two questions are merged as one. Below `golden check`'s 0.8
 * (NEAR_DUPLICATE_JACCARD), so a drafted file never holds a pair that check calls near-duplicate.
 */
export const MERGE_JACCARD = 0.7;

/** Questions asked in the same words, or nearly: the one kept, how often it was asked, over how long. */
export interface QuestionGroup {
  /** The latest trace of the group's most asked wording. */
  readonly kept: TrafficQuestion;
  /** Traces merged into the group (the kept one included). */
  readonly asked: number;
  readonly first: number;
  readonly last: number;
}

/**
 * Merges questions whose normalised text is the same or whose word sets have a Jaccard similarity
 * of at least `threshold`, greedily in time order (each question joins the first group it is close
 * to). The kept question of a group is its latest one.
 */
export function mergeQuestions(questions: readonly TrafficQuestion[], threshold = MERGE_JACCARD): QuestionGroup[] {
  const groups: { kept: TrafficQuestion; words: Set<string>; norm: string; asked: number; first: number; last: number }[] = [];
  for (const q of [...questions].sort((a, b) => a.at - b.at)) {
    const norm = normalizeText(q.question).toLowerCase();
    const words = questionWords(q.question);
    const g = groups.find((x) => x.norm === norm || wordJaccard(x.words, words) >= threshold);
    if (g === undefined) {
      groups.push({ kept: q, words, norm, asked: 1, first: q.at, last: q.at });
      continue;
    }
    g.asked++;
    g.last = Math.max(g.last, q.at);
    if (q.at >= g.kept.at) g.kept = q;
  }
  return groups.map(({ kept, asked, first, last }) => ({ kept, asked, first, last }));
}

/**
 * Picks `n` groups spread over services and time: services take turns (each gets ⌊n/services⌋ or
 * one more, a service with fewer groups leaving its share to the others), and within a service the
 * groups are taken evenly over its time order (the middle of each of n equal slices). Deterministic.
 * @returns the picked groups in time order.
 */
export function spreadSample(groups: readonly QuestionGroup[], n: number): QuestionGroup[] {
  const byService = new Map<string, QuestionGroup[]>();
  for (const g of [...groups].sort((a, b) => a.kept.at - b.kept.at)) {
    const s = g.kept.service_name;
    byService.set(s, [...(byService.get(s) ?? []), g]);
  }
  const services = [...byService.keys()].sort();
  const quota = serviceQuotas(services, byService, Math.min(n, groups.length));
  const picked: QuestionGroup[] = [];
  for (const s of services) {
    const list = byService.get(s) ?? [];
    const q = quota.get(s) ?? 0;
    for (let i = 0; i < q; i++) picked.push(list[Math.floor(((i + 0.5) * list.length) / q)] as QuestionGroup);
  }
  return picked.sort((a, b) => a.kept.at - b.kept.at);
}

/** How many groups each service gives: services take turns, one group each, until `n` are taken (a service out of groups is passed over). */
function serviceQuotas(services: readonly string[], byService: ReadonlyMap<string, readonly QuestionGroup[]>, n: number): Map<string, number> {
  const quota = new Map(services.map((s) => [s, 0]));
  let left = n;
  while (left > 0) {
    for (const s of services) {
      if (left > 0 && (quota.get(s) ?? 0) < (byService.get(s)?.length ?? 0)) {
        quota.set(s, (quota.get(s) ?? 0) + 1);
        left--;
      }
    }
  }
  return quota;
}

/** What a traffic draft did. */
export interface TrafficDraft {
  readonly items: readonly DraftedItem[];
  /** Distinct question texts read. */
  readonly read: number;
  /** Groups after merging near-duplicates. */
  readonly groups: number;
  readonly services: readonly string[];
}

const iso = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/u, "Z");
const short = (s: string, n: number): string => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/**
 * The drafted items of captured traffic: merged, sampled, each with the top retrieved document as
 * expected source and a sentence of its text as expected substring (document only when the text was
 * not captured), unconfirmed, tagged `drafted:traffic` and `service:<name>`.
 */
export function draftFromTraffic(questions: readonly TrafficQuestion[], n: number): TrafficDraft {
  const groups = mergeQuestions(questions);
  const items = spreadSample(groups, n).map((g): DraftedItem => {
    const q = g.kept;
    const top = q.retrieved[0];
    const text = top?.text.trim() ?? "";
    const asked = g.asked === 1 ? `asked once, ${iso(q.at)}` : `asked ${g.asked}× in near-identical words, ${iso(g.first)} – ${iso(g.last)}`;
    return {
      line: {
        id: `traffic-${q.trace_id.slice(0, 12)}`,
        question: q.question,
        expected_source: top?.document_id ?? "",
        ...(text !== "" ? { expected_substring: proposedSubstring(text) } : {}),
        tags: ["drafted:traffic", ...(q.service_name !== "" ? [`service:${q.service_name}`] : [])],
        unconfirmed: true,
      },
      note: `${q.service_name || "(no service name)"} · trace ${q.trace_id} · ${asked} · top of ${q.retrieved.length} retrieved${q.answer ? ` · answered ${JSON.stringify(short(q.answer, 100))}` : ""}`,
    };
  });
  return { items, read: questions.length, groups: groups.length, services: [...new Set(questions.map((q) => q.service_name))].sort() };
}
