/**
 * Rejects placeholder replies (issue 13): a small model answering `{"claim": "...", "chunk_ids":
 * ["..."]}` scored 1.00 on every question. A claim that is empty or only dots/ellipses/dashes or a
 * `<template>`, or a verdict citing a chunk id not among the passages, makes the reply invalid.
 */

const PLACEHOLDER = /^[\s.…·_\-–—*?]*$|^<[^>]*>$/u;

/** True when a claim (or fact) text is empty or a placeholder. */
export function isPlaceholder(text: string): boolean {
  return PLACEHOLDER.test(text.trim());
}

/**
 * The first problem of a list of verdicts: a placeholder claim, or a chunk id not among `chunkIds`.
 * @returns null when every claim is real and cites only given passages.
 */
export function verdictProblem(items: readonly { readonly claim: string; readonly chunk_ids: readonly string[] }[], chunkIds: ReadonlySet<string>): string | null {
  for (const [i, c] of items.entries()) {
    if (isPlaceholder(c.claim)) return `placeholder claim ${i + 1}: ${JSON.stringify(c.claim)}`;
    const bad = c.chunk_ids.find((id) => !chunkIds.has(id));
    if (bad !== undefined) return `claim ${i + 1} cites chunk ${JSON.stringify(bad)}, not among the passages`;
  }
  return null;
}
