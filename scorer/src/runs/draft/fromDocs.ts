// `ragmeter golden draft --from-docs`: an LLM (the judge endpoint) writes one question per passage;
// each proposal is kept only when a reader could answer it from that passage (its key facts are in
// the passage), when a substring of the document holds the answer exactly once, and when it is no
// duplicate or near-duplicate of a question kept before it.

import type { LlmJudgeOptions } from "@ragmeter/core/judges/llm/options";
import { createJudgeTransport, newTally, type Tally } from "@ragmeter/core/judges/llm/transport";
import { deriveGoldenId, normalizeText, occurrences, questionWords, sentences, wordJaccard } from "@ragmeter/golden";
import { z } from "zod";
import type { DraftDocument, Passage } from "./documents.js";
import { MERGE_JACCARD } from "./fromTraffic.js";
import type { DraftedItem } from "./reviewFile.js";

/** Kinds of question the model may say it wrote (the item's `kind:` tag). */
const KINDS = ["fact", "number", "procedure", "definition", "yes_no"] as const;

const replySchema = z.object({
  question: z.string(),
  answer: z.string(),
  key_facts: z.array(z.string()),
  quote: z.string(),
  kind: z.enum(KINDS),
});
type DraftReply = z.infer<typeof replySchema>;

const SYSTEM = `You write test questions for a retrieval system over a team's documentation.
You get ONE passage of ONE document. Write ONE question a user could ask that this passage alone answers.
Rules:
- The question stands on its own: never "this passage", "the text", "the document", "above".
- Do not copy a sentence of the passage as the question.
- The answer must be stated in the passage.
Reply with JSON only:
{"question": "...", "answer": "one short sentence", "key_facts": ["1 to 3 short strings (a number, a name, a term of 1-5 words) copied exactly from the passage, which a correct answer must contain"], "quote": "the one sentence of the passage, copied exactly, that holds the answer", "kind": "fact | number | procedure | definition | yes_no"}`;

/** The user message for one passage. */
function draftPrompt(p: Passage): string {
  return `Document: ${p.documentId}\n\nPassage:\n"""\n${p.text}\n"""`;
}

/** Why a proposed question was dropped. */
export type DropReason = "no_reply" | "not_self_contained" | "not_answerable" | "no_unique_substring" | "duplicate" | "near_duplicate";

/** The words of each drop reason, as the report says them. */
export const DROP_REASONS: Readonly<Record<DropReason, string>> = {
  no_reply: "no usable reply from the LLM",
  not_self_contained: "refers to the passage instead of standing alone",
  not_answerable: "a reader could not answer it from the passage (a key fact not in it, or none given)",
  no_unique_substring: "no substring of the document holds the answer exactly once",
  duplicate: "duplicate of a kept question",
  near_duplicate: "near-duplicate of a kept question",
};

/** What a documents draft did. */
export interface DocsDraft {
  readonly items: readonly DraftedItem[];
  /** Passages asked about (one proposal each). */
  readonly proposed: number;
  readonly dropped: Readonly<Record<DropReason, number>>;
  /** Each dropped proposal with its reason, in passage order. */
  readonly drops: readonly { readonly passage: Passage; readonly reason: DropReason; readonly detail: string }[];
  readonly calls: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
}

const folded = (s: string): string => normalizeText(s).toLowerCase();
const SELF_REFERENCE = /\b(this|the|above|following|given) (passage|text|excerpt|document|section|paragraph)\b/iu;

/** Longest expected substring proposed, characters (a longer one rarely fits in one chunk). */
const MAX_SUBSTRING = 240;

/**
 * The longest run of `s` free of markup (Markdown's `` ` * _ [ ] # | ``, HTML's `< >`, a leading
 * list or heading marker), trimmed: a service that renders Markdown to text keeps that run as it is.
 */
export function markupFree(s: string): string {
  const body = s.replace(/^\s*(?:[-*+]|\d+[.)]|#{1,6})\s+/u, "");
  const runs = body.split(/[`*_[\]<>|#]+/u).map((r) =>
    r
      .trim()
      .replace(/[\s,;:(]+$/u, "")
      .replace(/^[\s,;:)]+/u, ""),
  );
  return runs.reduce((a, b) => (b.length > a.length ? b : a), "");
}

/**
 * The expected substring of a proposal: a sentence holding the answer, as a run without markup
 * (see {@link markupFree}) of three words or more, at most 240 characters, occurring exactly once in
 * the document (compared as `golden check --corpus` does: normalised, case kept). Tried in order:
 * the quote's sentences holding the first key fact, the quote, the passage's sentences holding the
 * first key fact, then those holding any key fact. Null when none qualifies.
 */
export function expectedSubstring(reply: Pick<DraftReply, "quote" | "key_facts">, passage: string, docText: string): string | null {
  const doc = normalizeText(docText);
  const quote = reply.quote.trim().replace(/^["'“”]+|["'“”]+$/gu, "");
  const facts = reply.key_facts.map(folded);
  const holds = (s: string, f: string | undefined): boolean => f !== undefined && folded(s).includes(f);
  const passageSentences = sentences(passage);
  const candidates = [
    ...sentences(quote).filter((x) => holds(x, facts[0])),
    quote,
    ...passageSentences.filter((x) => holds(x, facts[0])),
    ...passageSentences.filter((x) => facts.some((f) => holds(x, f))),
  ];
  for (const c of candidates) {
    const run = normalizeText(markupFree(c));
    if (run.split(" ").length >= 3 && run.length <= MAX_SUBSTRING && occurrences(doc, run) === 1) return run;
  }
  return null;
}

/** Checks one proposal against its passage; the item, or why it is dropped. */
function judgeProposal(r: DraftReply, p: Passage, doc: DraftDocument): { ok: true; item: DraftedItem } | { ok: false; reason: DropReason; detail: string } {
  const question = r.question.trim();
  if (question === "" || SELF_REFERENCE.test(question)) return { ok: false, reason: "not_self_contained", detail: question };
  const facts = [
    ...new Map(
      r.key_facts
        .map((f) => f.trim())
        .filter((f) => f !== "")
        .map((f) => [folded(f), f]),
    ).values(),
  ];
  const passage = folded(p.text);
  const missing = facts.filter((f) => !passage.includes(folded(f)));
  if (facts.length === 0 || missing.length > 0)
    return {
      ok: false,
      reason: "not_answerable",
      detail: facts.length === 0 ? `${question} (no key facts)` : `${question} (not in the passage: ${missing.map((m) => JSON.stringify(m)).join(", ")})`,
    };
  const substring = expectedSubstring({ quote: r.quote, key_facts: facts }, p.text, doc.text);
  if (substring === null) return { ok: false, reason: "no_unique_substring", detail: question };
  return {
    ok: true,
    item: {
      line: {
        id: deriveGoldenId(question),
        question,
        expected_source: doc.id,
        expected_substring: substring,
        reference_answer: r.answer.trim(),
        key_facts: facts,
        tags: ["drafted:docs", `kind:${r.kind}`],
        unconfirmed: true,
      },
      note: `${doc.id} passage ${p.index + 1} · proposed answer ${JSON.stringify(r.answer.trim())}`,
    },
  };
}

/**
 * Asks the LLM for one question per passage (all at once; the endpoint's concurrency and rate
 * limits apply) and keeps the proposals that pass the checks, in passage order.
 * @param llm the judge endpoint's options (the same client, retries and limits as the LLM judge).
 */
export async function draftFromDocs(docs: readonly DraftDocument[], passages: readonly Passage[], llm: LlmJudgeOptions): Promise<DocsDraft> {
  const transport = createJudgeTransport(llm);
  const byId = new Map(docs.map((d) => [d.id, d]));
  const tallies: Tally[] = [];
  const replies = await Promise.all(
    passages.map(async (p) => {
      const tally = newTally();
      tallies.push(tally);
      return transport.call(SYSTEM, draftPrompt(p), "golden_draft", replySchema, replySchema, Math.min(transport.bounds.cap, 400), tally, (v) =>
        v.question.trim() === "" ? "the question is empty" : null,
      );
    }),
  );
  const dropped = Object.fromEntries(Object.keys(DROP_REASONS).map((k) => [k, 0])) as Record<DropReason, number>;
  const drops: { passage: Passage; reason: DropReason; detail: string }[] = [];
  const items: DraftedItem[] = [];
  const kept: { norm: string; words: Set<string> }[] = [];
  for (const [i, p] of passages.entries()) {
    const drop = (reason: DropReason, detail: string): void => {
      dropped[reason]++;
      drops.push({ passage: p, reason, detail });
    };
    const r = replies[i];
    if (r === undefined || !r.ok) {
      drop("no_reply", r?.ok === false ? r.reason : "no reply");
      continue;
    }
    const j = judgeProposal(r.value, p, byId.get(p.documentId) as DraftDocument);
    if (!j.ok) {
      drop(j.reason, j.detail);
      continue;
    }
    const norm = folded(j.item.line.question);
    const words = questionWords(j.item.line.question);
    if (kept.some((k) => k.norm === norm)) drop("duplicate", j.item.line.question);
    else if (kept.some((k) => wordJaccard(k.words, words) >= MERGE_JACCARD)) drop("near_duplicate", j.item.line.question);
    else {
      kept.push({ norm, words });
      items.push(j.item);
    }
  }
  return {
    items,
    proposed: passages.length,
    dropped,
    drops,
    calls: tallies.reduce((a, t) => a + t.calls, 0),
    inputTokens: tallies.reduce((a, t) => a + t.input_tokens, 0),
    outputTokens: tallies.reduce((a, t) => a + t.output_tokens, 0),
  };
}
