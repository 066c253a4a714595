// The review file of `ragmeter golden draft`: a golden set (JSONL) a person confirms. Like the review
// file of `calibrate sample`, it carries its instructions and leaves the person's part open: every
// item is marked "unconfirmed": true, which the person deletes once the item is right (`golden check`
// warns while any is left). What the person needs to judge an item is a `//` line above it, which the
// loader skips.

/** A drafted golden item as written (one JSONL line). */
export interface DraftItemLine {
  readonly id: string;
  readonly question: string;
  readonly expected_source: string;
  readonly expected_substring?: string;
  readonly reference_answer?: string;
  readonly key_facts?: readonly string[];
  readonly tags: readonly string[];
  readonly unconfirmed: true;
}

/** A drafted item and the note shown above it (where it came from). */
export interface DraftedItem {
  readonly line: DraftItemLine;
  readonly note: string;
}

/** Instructions written at the top of every drafted file. */
const DRAFT_INSTRUCTIONS = [
  'Drafted golden set: check each item, then delete its "unconfirmed": true.',
  "- question: one your documents should answer, worded as your users ask it (edit it, or delete the item)",
  "- expected_source: the document that answers it; expected_substring: the passage of that document that holds",
  "  the answer (fix either; a question your documents do not answer keeps neither: it is then unanswerable)",
  "- key_facts: short strings a correct answer must contain",
  "Then run: npx ragmeter golden check FILE [--corpus DIR]",
];

/** The drafted file's text: a header (`//` lines), then per item its note and its JSON line. */
export function draftFileText(header: readonly string[], items: readonly DraftedItem[]): string {
  const out = [...header, ...DRAFT_INSTRUCTIONS].map((l) => `// ${l}`);
  for (const it of items) out.push(`// ${it.note.replace(/\s*\n\s*/gu, " ")}`, JSON.stringify(it.line));
  return `${out.join("\n")}\n`;
}
