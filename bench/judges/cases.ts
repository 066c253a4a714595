// The hand-labelled judge benchmark set (issue 13): schema, loader and the checks that keep the
// writing rule of bench/judges/README.md mechanical. The set is data (cases.jsonl, one case a line);
// this module is read directly by vitest (tests/unit/judge-cases.unit.test.ts) and by anything that
// replays the set through the judges.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { z } from "zod";

/** Path of the shipped set. */
export const JUDGE_CASES_PATH = fileURLToPath(new URL("./cases.jsonl", import.meta.url));

export const LANGUAGES = ["en", "ru", "zh"] as const;
export type Language = (typeof LANGUAGES)[number];

/** The fixed category list; every category is present in every language (README, "Categories"). */
export const CATEGORIES = [
  "verbatim",
  "paraphrase",
  "invented-number",
  "changed-number",
  "mixed",
  "refusal",
  "empty-context",
  "blank-chunk",
  "off-topic-grounded",
  "relevant-ungrounded",
  "idk-answer-in-question",
  "cross-lingual",
] as const;
export type Category = (typeof CATEGORIES)[number];

/** What a paraphrase case changes relative to the chunk (a case may change several things). */
export const PARAPHRASE_KINDS = ["synonym", "reorder", "passive", "inflection", "number-words"] as const;
export type ParaphraseKind = (typeof PARAPHRASE_KINDS)[number];

/** Paraphrase kinds each language must cover; Chinese has no inflection to vary. */
export const REQUIRED_PARAPHRASE_KINDS: Record<Language, readonly ParaphraseKind[]> = {
  en: PARAPHRASE_KINDS,
  ru: PARAPHRASE_KINDS,
  zh: ["synonym", "reorder", "passive", "number-words"],
};

export const LABELS = ["SUPPORTED", "CONTRADICTED", "UNSUPPORTED"] as const;
export type Label = (typeof LABELS)[number];

/** Minimum number of cases per language. */
export const MIN_CASES_PER_LANGUAGE = 30;

const chunkSchema = z.strictObject({
  id: z.string().min(1),
  text: z.string(),
});

const claimSchema = z.strictObject({
  text: z.string().min(1),
  label: z.enum(LABELS),
});

const relevanceSchema = z
  .strictObject({
    min: z.number().int().min(0).max(4),
    max: z.number().int().min(0).max(4),
  })
  .refine((r) => r.min <= r.max, { message: "relevance.min must be ≤ relevance.max" });

export const judgeCaseSchema = z
  .strictObject({
    id: z.string().regex(/^(en|ru|zh)-[a-z-]+-\d{2}$/u, "id is <language>-<category>-<nn>"),
    language: z.enum(LANGUAGES),
    category: z.enum(CATEGORIES),
    paraphrase: z.array(z.enum(PARAPHRASE_KINDS)).min(1).optional(),
    question: z.string().min(1),
    chunks: z.array(chunkSchema),
    answer: z.string(),
    claims: z.array(claimSchema),
    expected_grounding: z.number().min(0).max(1).nullable(),
    expected_grounding_status: z.enum(["ok", "no_claims"]),
    relevance: relevanceSchema,
    note: z.string().min(1),
  })
  .superRefine((c, ctx) => {
    if (c.id !== `${c.language}-${c.category}-${c.id.slice(-2)}`) ctx.addIssue({ code: "custom", message: `id ${c.id} does not start with ${c.language}-${c.category}-` });
    if ((c.category === "paraphrase") !== (c.paraphrase !== undefined)) ctx.addIssue({ code: "custom", message: "`paraphrase` kinds are given exactly for paraphrase cases" });
    if (
      c.claims.length === 0 ? c.expected_grounding !== null || c.expected_grounding_status !== "no_claims" : c.expected_grounding === null || c.expected_grounding_status !== "ok"
    ) {
      ctx.addIssue({ code: "custom", message: "zero claims ⇔ expected_grounding null with status no_claims (design §5); otherwise a number with status ok" });
    }
  });

export type JudgeCase = z.infer<typeof judgeCaseSchema>;

/** A chunk that is empty or only whitespace: no context (design §5). */
export function isBlank(text: string): boolean {
  return text.trim().length === 0;
}

const SENTENCES = new Intl.Segmenter(undefined, { granularity: "sentence" });

/**
 * The answer's sentences as the heuristic judge splits claims (design §5): `Intl.Segmenter` with
 * sentence granularity, then after each CJK full-width `。！？`; NFC, whitespace runs folded,
 * trimmed, empty pieces dropped.
 */
export function splitSentences(text: string): string[] {
  const out: string[] = [];
  for (const s of SENTENCES.segment(text.normalize("NFC"))) {
    for (const piece of s.segment.split(/(?<=[。！？])/u)) {
      const t = piece.replace(/\s+/gu, " ").trim();
      if (t.length > 0) out.push(t);
    }
  }
  return out;
}

/** SUPPORTED claims / claims, or null for zero claims. */
export function groundingFromLabels(claims: readonly { label: Label }[]): number | null {
  if (claims.length === 0) return null;
  return claims.filter((c) => c.label === "SUPPORTED").length / claims.length;
}

/** The language a text is written in, by script: any Han → zh, else any Cyrillic → ru, else en. */
export function scriptLanguage(text: string): Language {
  if (/\p{Script=Han}/u.test(text)) return "zh";
  if (/\p{Script=Cyrillic}/u.test(text)) return "ru";
  return "en";
}

export class JudgeCasesError extends Error {
  override readonly name = "JudgeCasesError";
}

/**
 * Reads and validates a cases file (JSON Lines; blank lines are skipped). Throws a
 * {@link JudgeCasesError} naming the line of the first invalid case.
 */
export function loadJudgeCases(path: string = JUDGE_CASES_PATH): JudgeCase[] {
  const lines = readFileSync(path, "utf8").split("\n");
  const out: JudgeCase[] = [];
  lines.forEach((line, i) => {
    if (line.trim().length === 0) return;
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch (e) {
      throw new JudgeCasesError(`${path}:${i + 1}: not JSON: ${(e as Error).message}`);
    }
    const r = judgeCaseSchema.safeParse(raw);
    if (!r.success) throw new JudgeCasesError(`${path}:${i + 1}: ${z.prettifyError(r.error)}`);
    out.push(r.data);
  });
  return out;
}

/**
 * Problems of one valid case against the writing rule and the label rules (empty when none):
 * the claims are the answer's sentences; expected grounding is SUPPORTED / claims; blank chunks and
 * empty context support nothing; texts are in the case's language except the chunks of a
 * cross-lingual case.
 */
export function caseProblems(c: JudgeCase): string[] {
  const p: string[] = [];
  const sentences = splitSentences(c.answer);
  const claimTexts = c.claims.map((x) => x.text);
  if (c.claims.length > 0 && JSON.stringify(sentences) !== JSON.stringify(claimTexts)) {
    p.push(`claims ${JSON.stringify(claimTexts)} are not the answer's sentences ${JSON.stringify(sentences)}`);
  }
  const g = groundingFromLabels(c.claims);
  if (g === null ? c.expected_grounding !== null : c.expected_grounding === null || Math.abs(c.expected_grounding - g) > 1e-9) {
    p.push(`expected_grounding ${String(c.expected_grounding)} but the labels give ${String(g)}`);
  }
  const context = c.chunks.filter((k) => !isBlank(k.text));
  if (context.length === 0 && c.claims.some((x) => x.label !== "UNSUPPORTED")) p.push("no non-blank chunk, yet a claim is SUPPORTED or CONTRADICTED");
  if ((c.category === "empty-context") !== (c.chunks.length === 0)) p.push("empty-context ⇔ chunks is []");
  if ((c.category === "blank-chunk") !== c.chunks.some((k) => isBlank(k.text))) p.push("blank-chunk ⇔ some chunk is blank");
  if (new Set(c.chunks.map((k) => k.id)).size !== c.chunks.length) p.push("chunk ids repeat");
  if (scriptLanguage(c.question) !== c.language) p.push(`question is not in ${c.language}`);
  if (c.answer.trim().length > 0 && scriptLanguage(c.answer) !== c.language) p.push(`answer is not in ${c.language}`);
  const chunkLangs = context.map((k) => scriptLanguage(k.text));
  if (c.category === "cross-lingual") {
    if (chunkLangs.length === 0 || chunkLangs.some((l) => l === c.language)) p.push("cross-lingual: every chunk in another language");
  } else if (chunkLangs.some((l) => l !== c.language)) {
    p.push(`a chunk is not in ${c.language}`);
  }
  if (c.claims.length === 0 && !["refusal", "idk-answer-in-question"].includes(c.category)) p.push("only refusal and idk cases have zero claims");
  if (["refusal", "idk-answer-in-question", "off-topic-grounded"].includes(c.category) && c.relevance.max > 1) p.push(`${c.category}: relevance at most 1`);
  return p;
}
