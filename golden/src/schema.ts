import { z } from "zod";

/**
 * One golden item (one line of a golden-set JSONL file, or one row of a CSV file), design §2 and §7.
 *
 * - `expected_source`: id of the document that holds the answer (for the bundled corpus, its path
 *   relative to the corpus folder). `null` or absent (and no `expected_chunk_id`) means the question
 *   is unanswerable.
 * - `expected_substring`: text that a retrieved chunk of that document must contain (compared after
 *   NFC normalisation and whitespace folding). Instead of it, `expected_lines: [first, last]`
 *   (1-based, inclusive) names a line range of the document, resolved by the loader. With neither,
 *   any retrieved chunk of the document is a hit (document-level match). Either needs
 *   `expected_source` (without it the item would silently be unanswerable).
 * - key_facts: short strings a correct answer must contain (key-facts metric, design §5).
 * - `expected_chunk_id`: instead of a document and substring, the exact id of the chunk that holds the
 *   answer (breaks when the documents are re-chunked). Not together with a substring or line range.
 * - `id` is optional: when absent, the loader derives one from the question text.
 * - `unconfirmed: true`: a drafted item (`ragmeter init`, `ragmeter golden draft`) no person has
 *   confirmed yet; `golden check` warns on it. Deleting the field (or `false`) confirms the item; it
 *   is not part of the set's hash, so confirming items keeps the set's runs comparable.
 *
 * An explicit `null` for any optional field means the field is absent.
 */
export const goldenItemSchema = z
  .object({
    id: z.union([z.string().min(1, "must be a non-empty string"), z.number().int().transform(String)]).nullish(),
    question: z.string().trim().min(1, "must be a non-empty string"),
    expected_source: z.string().min(1).nullish(),
    expected_substring: z.string().trim().min(1).nullish(),
    expected_lines: z.tuple([z.number().int().min(1), z.number().int().min(1)]).nullish(),
    expected_chunk_id: z.string().trim().min(1).nullish(),
    reference_answer: z.string().nullish(),
    key_facts: z.array(z.string().trim().min(1)).nullish(),
    tags: z
      .array(z.string().min(1))
      .nullish()
      .transform((t) => t ?? []),
    unconfirmed: z.boolean().nullish(),
  })
  .strict()
  .superRefine((item, ctx) => {
    const chunk = item.expected_chunk_id !== null && item.expected_chunk_id !== undefined;
    const precise = (item.expected_substring !== null && item.expected_substring !== undefined) || (item.expected_lines !== null && item.expected_lines !== undefined);
    if (chunk && precise) {
      ctx.addIssue({
        code: "custom",
        path: ["expected_chunk_id"],
        message: "give either expected_chunk_id or expected_substring/expected_lines, not both",
      });
    }
    const source = item.expected_source !== null && item.expected_source !== undefined;
    if (precise && !chunk && !source) {
      // Without a document the item would be read as unanswerable and its substring ignored.
      ctx.addIssue({
        code: "custom",
        path: ["expected_source"],
        message: "needed with expected_substring/expected_lines (the document that holds them); an unanswerable item has neither",
      });
    }
    if (item.expected_lines && item.expected_lines[1] < item.expected_lines[0]) {
      ctx.addIssue({ code: "custom", path: ["expected_lines"], message: "last line is before first line" });
    }
  });

/** A golden item as written in the file. */
export type GoldenItemInput = z.input<typeof goldenItemSchema>;

/**
 * A validated golden item; `expected_substring` is resolved when the item is answerable.
 * How a retrieved item is matched against it: {@link matchMode}.
 */
export interface GoldenItem {
  /** The id from the file, or one derived from the question text when the file gives none. */
  readonly id: string;
  readonly question: string;
  /** Expected document id, or null (with no `expected_chunk_id`: unanswerable). */
  readonly expected_source: string | null;
  /**
   * Expected substring (resolved from `expected_lines` when given), null when unanswerable, when
   * only the document is expected, or when the item names a chunk id.
   */
  readonly expected_substring: string | null;
  /**
   * Exact id of the expected chunk, or null. The loader always sets it; optional in the type only
   * so that items built elsewhere before this field existed still type-check (absent = null).
   */
  readonly expected_chunk_id?: string | null;
  /**
   * The line range `expected_substring` was resolved from, or null when the substring was written
   * out. The loader always sets it; absent = null.
   */
  readonly expected_lines?: readonly [number, number] | null;
  readonly reference_answer: string | null;
  /** Key facts, or null when the item has none (key-facts metric `not_applicable`). */
  readonly key_facts: readonly string[] | null;
  readonly tags: readonly string[];
  /**
   * True for a drafted item no person has confirmed yet (`golden check` warns); the loader sets it
   * only then (absent = confirmed, so items compare as before the field existed).
   */
  readonly unconfirmed?: boolean;
}

/** File formats of a golden set. */
export type GoldenFormat = "jsonl" | "csv";

/** A loaded golden set. */
export interface GoldenSet {
  /** Path the set was read from (as given). */
  readonly path: string;
  /** The format the set was read as. */
  readonly format: GoldenFormat;
  /** SHA-256 (hex) of the normalised content, see `goldenSetHash`; the same whichever format. */
  readonly sha256: string;
  readonly items: readonly GoldenItem[];
  /**
   * Things the user should be told once per load (derived ids, chunk-id expectations), one
   * sentence each; empty when there is nothing to say.
   */
  readonly notices: readonly string[];
}
