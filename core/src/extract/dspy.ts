/** DSPy's ChatAdapter section header: `[[ ## name ## ]]`. */
const SECTION = /\[\[ ## (\w+) ## \]\]/gu;
/** Sections that are not an answer: the adapter's end marker and ChainOfThought's reasoning. */
const NOT_ANSWER = new Set(["completed", "reasoning"]);

/**
 * The answer in a reply DSPy's ChatAdapter asked for (`[[ ## response ## ]]\n…\n\n[[ ## completed ## ]]`,
 * as OpenInference records the LM call of a DSPy program): the value of its one output field
 * besides reasoning. Null when the text is not in that form or holds several such fields (which of
 * them is the answer is the program's to say).
 */
export function dspyAnswer(text: string | null): string | null {
  if (text === null || !text.trimStart().startsWith("[[ ## ")) return null;
  const headers = [...text.matchAll(SECTION)];
  const fields = headers.map((m, i) => ({ name: m[1] as string, value: text.slice((m.index ?? 0) + m[0].length, headers[i + 1]?.index ?? text.length).trim() }));
  const answers = fields.filter((f) => !NOT_ANSWER.has(f.name));
  return answers.length === 1 ? (answers[0]?.value ?? null) : null;
}
