import { z } from "zod";

/**
 * One golden item (one line of a golden-set JSONL file), design §2 and §7.
 *
 * - `expected_source`: id of the document that holds the answer (for the bundled corpus, its path
 *   relative to the corpus folder). `null` or absent means the question is unanswerable.
 * - `expected_substring`: text that a retrieved chunk of that document must contain (compared after
 *   NFC normalisation and whitespace folding). Instead of it, `expected_lines: [first, last]`
 *   (1-based, inclusive) names a line range of the document, resolved by the loader.
 * - `key_facts`: short strings a correct answer must contain (key-facts metric, design §5).
 */
export const goldenItemSchema = z
  .object({
    id: z.string().min(1, "must be a non-empty string"),
    question: z.string().trim().min(1, "must be a non-empty string"),
    expected_source: z.string().min(1).nullable().optional(),
    expected_substring: z.string().trim().min(1).optional(),
    expected_lines: z.tuple([z.number().int().min(1), z.number().int().min(1)]).optional(),
    reference_answer: z.string().optional(),
    key_facts: z.array(z.string().trim().min(1)).optional(),
    tags: z.array(z.string().min(1)).default([]),
  })
  .strict()
  .superRefine((item, ctx) => {
    const answerable = item.expected_source !== null && item.expected_source !== undefined;
    if (answerable && item.expected_substring === undefined && item.expected_lines === undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["expected_substring"],
        message: "required when expected_source is set (or give expected_lines)",
      });
    }
    if (item.expected_lines && item.expected_lines[1] < item.expected_lines[0]) {
      ctx.addIssue({ code: "custom", path: ["expected_lines"], message: "last line is before first line" });
    }
  });

/** A golden item as written in the file. */
export type GoldenItemInput = z.input<typeof goldenItemSchema>;

/** A validated golden item; `expected_substring` is resolved when the item is answerable. */
export interface GoldenItem {
  readonly id: string;
  readonly question: string;
  /** Expected document id, or null when unanswerable. */
  readonly expected_source: string | null;
  /** Expected substring (resolved from `expected_lines` when given), null when unanswerable. */
  readonly expected_substring: string | null;
  readonly reference_answer: string | null;
  /** Key facts, or null when the item has none (key-facts metric `not_applicable`). */
  readonly key_facts: readonly string[] | null;
  readonly tags: readonly string[];
}

/** A loaded golden set. */
export interface GoldenSet {
  /** Path the set was read from (as given). */
  readonly path: string;
  /** SHA-256 (hex) of the normalised content, see `goldenSetHash`. */
  readonly sha256: string;
  readonly items: readonly GoldenItem[];
}
